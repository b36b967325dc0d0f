"""The CRM pipeline: imitates Odoo's ``crm.stage``, ``crm.lost.reason`` and ``crm.lead``.

Won/lost as captured on Odoo 19: ``action_set_won`` returns True and moves the lead to the
first won stage with probability 100; ``action_set_lost`` archives it (None), refused on a
won lead; ``action_unarchive`` restores it and clears the reason.  The real server's
automated probability (a naive Bayes over past leads) is replaced by the stage's rank.
"""

from __future__ import annotations

from typing import Any

from fake_odoo.models.common import vals_batch
from fake_odoo.orm import api, fields
from fake_odoo.orm.exceptions import UserError
from fake_odoo.orm.model import Model, Rule, TransientModel

SALESMAN = "sales_team.group_sale_salesman"
SALES_ACCESS = {SALESMAN: "rwcu", "sales_team.group_sale_manager": "rwcu"}


class CrmStage(Model):
    _name = "crm.stage"
    _description = "CRM Stages"
    _order = "sequence, name, id"
    _access = {"base.group_user": "r", "sales_team.group_sale_manager": "rwcu"}

    name = fields.Char("Stage Name", required=True, translate=True)
    sequence = fields.Integer("Sequence", default=1, help="Used to order stages. Lower is better.")
    is_won = fields.Boolean("Is Won Stage?")
    fold = fields.Boolean(
        "Folded in Pipeline",
        help="This stage is folded in the kanban view when there are no records in that stage"
        " to display.",
    )
    requirements = fields.Text(
        "Requirements",
        help="Enter here the internal requirements for this stage (ex: Offer sent to customer)."
        " It will appear as a tooltip over the stage's name.",
    )
    # Odoo 17 ties a stage to one team; reading team_ids faults there
    # (odoo17/flow_crm_lead_pipeline.json step 1)
    team_ids = fields.Many2many("crm.team", "Sales Teams", min_version=18)
    team_id = fields.Many2one("crm.team", "Sales Team", ondelete="set null", max_version=17)


class CrmLostReason(Model):
    _name = "crm.lost.reason"
    _description = "Opp. Lost Reason"
    _access = {"base.group_user": "r", "sales_team.group_sale_manager": "rwcu"}

    name = fields.Char("Description", required=True, translate=True)
    active = fields.Boolean("Active", default=True)


def _own_leads(env: Any) -> list[Any]:
    return ["|", ("user_id", "=", env.uid), ("user_id", "=", False)]


class CrmLead(Model):
    _name = "crm.lead"
    _description = "Lead"
    _order = "priority desc, id desc"
    _access = SALES_ACCESS
    _rules = [
        Rule(groups=(SALESMAN,), domain=_own_leads, name="Personal Leads"),
        Rule(groups=("sales_team.group_sale_salesman_all_leads",), domain=None),
    ]

    name = fields.Char("Opportunity", required=True)
    type = fields.Selection(
        [("lead", "Lead"), ("opportunity", "Opportunity")],
        "Type",
        required=True,
        default=lambda env: "lead" if env.context.get("default_type") == "lead" else "opportunity",
    )
    active = fields.Boolean("Active", default=True)
    priority = fields.Selection(
        [("0", "Low"), ("1", "Medium"), ("2", "High"), ("3", "Very High")], "Priority", default="0"
    )
    stage_id = fields.Many2one("crm.stage", "Stage", default=lambda env: _first_stage(env))
    user_id = fields.Many2one("res.users", "Salesperson", default=lambda env: env.uid)
    team_id = fields.Many2one("crm.team", "Sales Team", default=lambda env: _default_team(env))
    company_id = fields.Many2one("res.company", "Company", default=1)
    partner_id = fields.Many2one(
        "res.partner",
        "Contact",
        help="Linked partner (optional). Usually created when converting the lead. You can find"
        " a partner by its Name, TIN, Email or Internal Reference.",
    )
    partner_name = fields.Char(
        "Company Name",
        help="The name of the future partner company that will be created while converting the"
        " lead into opportunity",
    )
    contact_name = fields.Char("Contact Name")
    email_from = fields.Char("Email")
    phone = fields.Char("Phone")
    city = fields.Char("City")
    country_id = fields.Many2one("res.country", "Country")
    description = fields.Html("Notes")
    expected_revenue = fields.Monetary("Expected Revenue")
    probability = fields.Float("Probability")
    automated_probability = fields.Float("Automated Probability", readonly=True)
    date_deadline = fields.Date(
        "Expected Closing", help="Estimate of the date on which the opportunity will be won."
    )
    date_closed = fields.Datetime("Closed Date", readonly=True, copy=False)
    date_last_stage_update = fields.Datetime(
        "Last Stage Update", readonly=True, default=lambda env: env.db.now_str()
    )
    lost_reason_id = fields.Many2one("crm.lost.reason", "Lost Reason")
    won_status = fields.Selection(
        [("won", "Won"), ("lost", "Lost"), ("pending", "Pending")],
        "Won/Lost",
        compute="_compute_won_status",
        store=True,
        min_version=18,  # unknown to 17 (odoo17/flow_crm_lead_pipeline.json step 4)
    )
    order_ids = fields.One2many("sale.order", "opportunity_id", "Orders")

    def _compute_won_status(self) -> Any:
        if self.sudo().stage_id.is_won:
            return "won"
        if not self.active and self.probability == 0:
            return "lost"
        return "pending"

    def _stage_probability(self, stage: Any) -> float:
        if stage.is_won:
            return 100.0
        stages = self.env["crm.stage"].sudo().search([])
        rank = stages.ids.index(stage.id) + 1 if stage.id in stages.ids else 1
        return round(min(90.0, 10.0 + 20.0 * rank), 2)

    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        records = super().create(batch)
        for lead, vals in zip(records.sudo(), batch, strict=True):
            prob = lead._stage_probability(lead.stage_id)
            lead.write(
                {
                    "automated_probability": prob,
                    **({} if "probability" in vals else {"probability": prob}),
                }
            )
        return records

    def write(self, vals: dict[str, Any]) -> Any:
        if "stage_id" in vals:
            stage = self.env["crm.stage"].sudo().browse(vals["stage_id"])
            prob = self._stage_probability(stage)
            vals = {
                "date_last_stage_update": self.env.db.now_str(),
                "automated_probability": prob,
                "probability": prob,
                **vals,
            }
            if stage.is_won:
                vals.setdefault("date_closed", self.env.db.now_str())
        return super().write(vals)

    def action_set_won(self) -> bool:
        won = self.env["crm.stage"].sudo().search([("is_won", "=", True)], limit=1)
        self.write(
            {
                "stage_id": won.id,
                "probability": 100.0,
                "automated_probability": 100.0,
                "date_closed": self.env.db.now_str(),
                "lost_reason_id": False,
            }
        )
        return True

    def action_set_lost(self, **additional_values: Any) -> None:
        # Odoo 17 loses a won lead too (odoo17/flow_crm_lead_pipeline.json step 15)
        if self.env.major >= 18 and any(lead.stage_id.is_won for lead in self.sudo()):
            raise UserError("A lead in a Won stage cannot be lost. Move it to another stage first.")
        self.write(
            {
                **additional_values,
                "active": False,
                "probability": 0.0,
                "automated_probability": 0.0,
                "date_closed": self.env.db.now_str(),
            }
        )

    def action_unarchive(self) -> None:
        for lead in self.with_context(active_test=False):
            prob = lead._stage_probability(lead.sudo().stage_id)
            lead.write(
                {
                    "active": True,
                    "lost_reason_id": False,
                    "date_closed": False,
                    "probability": prob,
                    "automated_probability": prob,
                }
            )

    def action_archive(self) -> None:
        self.write({"active": False})

    def convert_opportunity(
        self, partner: Any, user_ids: Any = False, team_id: Any = False
    ) -> bool:
        """Turn leads into opportunities of ``partner`` (a res.partner *recordset*: over RPC
        an id fails like Odoo's, "AttributeError: 'int' object has no attribute 'id'")."""
        for lead in self:
            if not lead.active or lead.probability == 100:
                continue
            vals: dict[str, Any] = {"type": "opportunity", "partner_id": partner.id}
            if not lead.stage_id:
                vals["stage_id"] = _first_stage(self.env)
            lead.write(vals)
        if user_ids or team_id:
            user = user_ids[0] if isinstance(user_ids, list | tuple) else user_ids
            self.write({k: v for k, v in (("user_id", user), ("team_id", team_id)) if v})
        return True

    def redirect_lead_opportunity_view(self) -> dict[str, Any]:
        return {
            "name": "Lead or Opportunity",
            "view_mode": "form",
            "res_model": "crm.lead",
            "domain": [["type", "=", "opportunity"]],
            "res_id": self.id,
            "view_id": False,
            "type": "ir.actions.act_window",
            "context": {"default_type": "opportunity"},
        }


CUSTOMER_ACTIONS = [("create", "Create a new customer"), ("exist", "Link to an existing customer")]
#: 17 may also leave the lead without customer (odoo17/flow_crm_lead_pipeline.json step 19)
CUSTOMER_ACTIONS_17 = [*CUSTOMER_ACTIONS, ("nothing", "Do not link to a customer")]


def _active_lead(env: Any) -> Any:
    context = env.context
    if context.get("active_model", "crm.lead") != "crm.lead":
        return False
    return context.get("active_id") or False


class CrmLead2OpportunityPartner(TransientModel):
    """The "Convert to opportunity" wizard, opened on a lead (context active_id)."""

    _name = "crm.lead2opportunity.partner"
    _description = "Convert Lead to Opportunity (not in mass)"
    _access = SALES_ACCESS

    name = fields.Selection(
        [("convert", "Convert to opportunity"), ("merge", "Merge with existing opportunities")],
        "Conversion Action",
    )
    action = fields.Selection(
        lambda model: CUSTOMER_ACTIONS_17 if model.env.major <= 17 else CUSTOMER_ACTIONS,
        "Related Customer",
        required=True,
    )
    lead_id = fields.Many2one("crm.lead", "Associated Lead", required=True, default=_active_lead)
    lead_partner_name = fields.Char("Company Name", related="lead_id.partner_name")
    lead_contact_name = fields.Char("Contact Name", related="lead_id.contact_name")
    duplicated_lead_ids = fields.Many2many("crm.lead", string="Opportunities")
    commercial_partner_id = fields.Many2one("res.partner", "Company")
    partner_id = fields.Many2one("res.partner", "Customer")
    user_id = fields.Many2one("res.users", "Salesperson")
    team_id = fields.Many2one("crm.team", "Sales Team")
    force_assignment = fields.Boolean("Force assignment", default=True)

    @api.model
    def create(self, vals_list: Any) -> Any:
        batch = vals_batch(vals_list)
        for vals in batch:
            # Odoo computes these from the lead (stored computes the client may override)
            lead = self.env["crm.lead"].browse(vals.get("lead_id") or _active_lead(self.env))
            partner = vals.get("partner_id") or (lead.partner_id.id if lead else False)
            vals.setdefault("name", "convert")
            vals.setdefault("action", "exist" if partner else "create")
            vals.setdefault("partner_id", partner)
        return super().create(batch)

    def action_apply(self) -> dict[str, Any]:
        wizard: Any = self
        lead = wizard.lead_id
        if wizard.action == "exist":
            partner = wizard.partner_id
        elif wizard.action == "nothing":
            partner = self.env["res.partner"]
        else:
            partner = self.env["res.partner"].create(
                {
                    "name": lead.partner_name or lead.contact_name or lead.name,
                    "email": lead.email_from,
                }
            )
        lead.convert_opportunity(partner, wizard.user_id.ids, wizard.team_id.id)
        action: dict[str, Any] = lead.redirect_lead_opportunity_view()
        return action


def _first_stage(env: Any) -> Any:
    stage = env["crm.stage"].sudo().search([], limit=1)
    return stage.id or False


def _default_team(env: Any) -> Any:
    team = env.ref("sales_team.team_sales_department", raise_if_not_found=False)
    return team.id if team else False
