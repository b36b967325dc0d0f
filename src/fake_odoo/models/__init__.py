"""The business models of the fake Odoo, one module per area; ``ALL_MODELS`` lists them.

Importing this package registers every model class (``orm.model.REGISTRY``), which is
what ``Database(models=None)`` serves, filtered by each class's version bounds.
"""

from __future__ import annotations

from fake_odoo.models.account import (
    AccountAccount,
    AccountJournal,
    AccountMoveLine,
    AccountPaymentTerm,
    AccountTax,
)
from fake_odoo.models.account_move import AccountMove
from fake_odoo.models.account_payment import (
    AccountPayment,
    AccountPaymentMethodLine,
    AccountPaymentRegister,
)
from fake_odoo.models.base import FRAMEWORK_MODELS
from fake_odoo.models.crm import CrmLead, CrmLead2OpportunityPartner, CrmLostReason, CrmStage
from fake_odoo.models.ir_module import IrModuleModule
from fake_odoo.models.product import ProductCategory, ProductProduct, ProductTemplate, UomUom
from fake_odoo.models.res_company import ResCompany, ResCountry, ResCountryState, ResCurrency
from fake_odoo.models.res_partner import ResPartnerCategory
from fake_odoo.models.sale import SaleOrder
from fake_odoo.models.sale_cancel_wizard import SaleOrderCancel
from fake_odoo.models.sale_invoice_wizard import SaleAdvancePaymentInv
from fake_odoo.models.sale_line import SaleOrderLine
from fake_odoo.models.sale_partner import ResPartnerSale
from fake_odoo.models.sale_team import CrmTeam, ProductPricelist, QuotationDocument
from fake_odoo.models.stock import StockLocation, StockPickingType, StockQuant, StockWarehouse
from fake_odoo.models.stock_move import StockMove
from fake_odoo.models.stock_move_line import StockMoveLine
from fake_odoo.models.stock_picking import StockPicking
from fake_odoo.models.stock_wizard import (
    ConfirmStockSms,
    StockBackorderConfirmation,
    StockBackorderConfirmationLine,
)
from fake_odoo.orm.model import BaseModel

BUSINESS_MODELS: tuple[type[BaseModel], ...] = (
    ResPartnerSale,  # res.partner with the sale module's extension
    ResPartnerCategory,
    ResCompany,
    ResCurrency,
    ResCountry,
    ResCountryState,
    UomUom,
    ProductCategory,
    ProductTemplate,
    ProductProduct,
    ProductPricelist,
    CrmTeam,
    SaleOrder,
    QuotationDocument,
    SaleOrderLine,
    SaleAdvancePaymentInv,
    SaleOrderCancel,
    StockWarehouse,
    StockLocation,
    StockPickingType,
    StockQuant,
    StockPicking,
    StockMove,
    StockMoveLine,
    StockBackorderConfirmation,
    StockBackorderConfirmationLine,
    ConfirmStockSms,
    AccountAccount,
    AccountTax,
    AccountJournal,
    AccountPaymentTerm,
    AccountMove,
    AccountMoveLine,
    AccountPaymentMethodLine,
    AccountPayment,
    AccountPaymentRegister,
    CrmStage,
    CrmLostReason,
    CrmLead,
    CrmLead2OpportunityPartner,
    IrModuleModule,
)
ALL_MODELS: tuple[type[BaseModel], ...] = (*FRAMEWORK_MODELS, *BUSINESS_MODELS)

__all__ = ["ALL_MODELS", "BUSINESS_MODELS"]
