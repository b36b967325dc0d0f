"""Installed modules: imitates Odoo's ``ir.module.module`` (module base), read-only here.

The list is filled by the demo builder with the modules the captured server had
installed; ``latest_version`` reads "<serie>.<module version>" such as "19.0.1.4".
"""

from __future__ import annotations

from fake_odoo.orm import fields
from fake_odoo.orm.model import Model

MODULE_STATES = [
    ("uninstallable", "Uninstallable"),
    ("uninstalled", "Not Installed"),
    ("installed", "Installed"),
    ("to upgrade", "To be upgraded"),
    ("to remove", "To be removed"),
    ("to install", "To be installed"),
]


class IrModuleModule(Model):
    _name = "ir.module.module"
    _description = "Module"
    _order = "application desc,sequence,name"
    _rec_name = "shortdesc"
    _access = {"base.group_user": "r", "base.group_system": "rwcu"}

    name = fields.Char("Technical Name", required=True, readonly=True)
    shortdesc = fields.Char("Module Name", readonly=True, translate=True)
    summary = fields.Char("Summary", readonly=True, translate=True)
    description = fields.Text("Description", readonly=True, translate=True)
    author = fields.Char("Author", readonly=True)
    website = fields.Char("Website", readonly=True)
    latest_version = fields.Char("Installed Version", readonly=True)
    installed_version = fields.Char("Latest Version", compute="_compute_installed", store=False)
    state = fields.Selection(MODULE_STATES, "Status", readonly=True, default="uninstalled")
    application = fields.Boolean("Application", readonly=True)
    auto_install = fields.Boolean(
        "Automatic Installation",
        help="An auto-installable module is automatically installed by the system when all its"
        " dependencies are satisfied. If the module has no dependency, it is always installed.",
    )
    sequence = fields.Integer("Sequence", default=100)
    license = fields.Selection(
        [
            ("GPL-2", "GPL Version 2"),
            ("GPL-2 or any later version", "GPL-2 or later version"),
            ("GPL-3", "GPL Version 3"),
            ("GPL-3 or any later version", "GPL-3 or later version"),
            ("AGPL-3", "Affero GPL-3"),
            ("LGPL-3", "LGPL Version 3"),
            ("Other OSI approved licence", "Other OSI Approved License"),
            ("OEEL-1", "Odoo Enterprise Edition License v1.0"),
            ("OPL-1", "Odoo Proprietary License v1.0"),
            ("Other proprietary", "Other Proprietary"),
        ],
        "License",
        default="LGPL-3",
        readonly=True,
    )

    def _compute_installed(self) -> str | bool:
        return self.latest_version or False
