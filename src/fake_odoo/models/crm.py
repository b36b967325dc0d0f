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
from fake_odoo.orm.model import Model, Rule

SALESMAN = "sales_team.group_sale_salesman"
SALES_ACCESS = {SALESMAN: "rwcu", "sales_team.group_sale_manager": "rwcu"}


class CrmStage(Model):
    _name = "crm.stage"
    _description = "CRM Stages"
    _order = "sequence, name, id"
    _access = {"base.group_user": "r", "sales_team.group_sale_manager": "rwcu"}

    name = fields.Char("Stage Name", required=True, translate=True)
    sequence = fields.Integer("Sequence", default=1)
    is_won = fields.Boolean("Is Won Stage?")
    fold = fields.Boolean("Folded in Pipeline")
    requirements = fields.Text("Requirements")
    team_ids = fields.Many2many("crm.team", "Sales Teams")


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
    partner_id = fields.Many2one("res.partner", "Contact")
    partner_name = fields.Char("Company Name")
    contact_name = fields.Char("Contact Name")
    email_from = fields.Char("Email")
    phone = fields.Char("Phone")
    city = fields.Char("City")
    country_id = fields.Many2one("res.country", "Country")
    description = fields.Html("Notes")
    expected_revenue = fields.Monetary("Expected Revenue")
    probability = fields.Float("Probability")
    automated_probability = fields.Float("Automated Probability", readonly=True)
    date_deadline = fields.Date("Expected Closing")
    date_closed = fields.Datetime("Closed Date", readonly=True, copy=False)
    date_last_stage_update = fields.Datetime(
        "Last Stage Update", default=lambda env: env.db.now_str()
    )
    lost_reason_id = fields.Many2one("crm.lost.reason", "Lost Reason")
    won_status = fields.Selection(
        [("won", "Won"), ("lost", "Lost"), ("pending", "Pending")],
        "Won/Lost",
        compute="_compute_won_status",
        store=True,
        min_version=17,
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
        if any(lead.stage_id.is_won for lead in self.sudo()):
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


def _first_stage(env: Any) -> Any:
    stage = env["crm.stage"].sudo().search([], limit=1)
    return stage.id or False


def _default_team(env: Any) -> Any:
    team = env.ref("sales_team.team_sales_department", raise_if_not_found=False)
    return team.id if team else False
