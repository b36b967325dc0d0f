# ruff: noqa: E501 - one demo record per line reads best in these data tables
"""Demo contacts and products: Odoo's own demo companies and people (at the ids the
captured server showed) and the customers and catalogue of "Tienda Lujanita", a small
Spanish-speaking storefront selling mate gear in Argentina, Spain and Mexico."""

from __future__ import annotations

from typing import Any

from fake_odoo.demo.common import create_at
from fake_odoo.demo.html_notes import PARTNER_NOTES, pick

# (id, name, parent id, is company, email, phone, country id, city, active)
ODOO_PARTNERS = (
    (9, "Acme Corporation", 0, True, "info@agrolait.com", "(603)-996-3829", 233, "Pleasant Hill", True),
    (10, "Gemini Furniture", 0, True, "john.b@tech.info", "(941)-284-4875", 203, "Serravalle", True),
    (11, "Ready Mat", 0, True, "ready.mat28@example.com", "(803)-873-6126", 233, "Tracy", True),
    (12, "Wood Corner", 0, True, "wood.corner26@example.com", "(623)-853-7197", 233, "Turlock", True),
    (13, "LightsUp", 0, True, "lightsup@example.com", "+382 20 123 456", 139, "Podgorica", True),
    (14, "The Jackson Group", 0, True, "jackson.group82@example.com", "(334)-502-1024", 233, "Lake Jackson", True),
    (15, "Azure Interior", 0, True, "vauxoo@yourcompany.example.com", "(870)-931-0505", 233, "Fremont", True),
    (16, "Lumber Inc", 0, True, "lumber-inv92@example.com", "(828)-316-0593", 233, "Stockton", True),
    (17, "Deco Addict", 0, True, "deco.addict82@example.com", "(603)-996-3829", 233, "Pleasant Hill", False),
    (18, "Ron Gibson", 12, False, "ron.gibson76@example.com", "(976)-397-4091", 233, "Turlock", True),
    (19, "Douglas Fletcher", 9, False, "douglas.fletcher51@example.com", "(132)-553-7242", 233, "Pleasant Hill", True),
    (20, "Floyd Steward", 9, False, "floyd.steward34@example.com", "(145)-138-3401", 233, "Pleasant Hill", True),
    (21, "Edwin Hansen", 10, False, "edwin.hansen58@example.com", "(943)-352-2555", 203, "Serravalle", True),
    (22, "Billy Fox", 11, False, "billy.fox45@example.com", "(915)-498-5611", 233, "Tracy", True),
    (23, "Jesse Brown", 10, False, "jesse.brown74@example.com", "(829)-386-3277", 203, "Serravalle", True),
    (24, "Soham Palmer", 10, False, "soham.palmer15@example.com", "(379)-167-2040", 203, "Serravalle", True),
    (25, "Kim Snyder", 11, False, "kim.snyder96@example.com", "(215)-379-4865", 233, "Tracy", True),
    (26, "Edith Sanchez", 11, False, "edith.sanchez68@example.com", "(938)-175-2048", 233, "Tracy", True),
    (27, "Brandon Freeman", 15, False, "brandon.freeman55@example.com", "(355)-687-3262", 233, "Fremont", True),
    (28, "Nicole Ford", 15, False, "nicole.ford75@example.com", "(946)-638-6034", 233, "Fremont", True),
    (29, "Julie Richards", 11, False, "julie.richards84@example.com", "(225)-148-7811", 233, "Tracy", True),
    (30, "Gordon Owens", 14, False, "gordon.owens47@example.com", "(336)-723-6569", 233, "Lake Jackson", True),
    (31, "Theodore Gardner", 14, False, "theodore.gardner36@example.com", "(186)-612-6561", 233, "Lake Jackson", True),
    (32, "Oscar Morgan", 10, False, "oscar.morgan11@example.com", "(561)-239-1744", 203, "Serravalle", True),
    (33, "Willie Burke", 12, False, "willie.burke80@example.com", "(846)-523-2111", 233, "Turlock", True),
    (34, "Colleen Diaz", 15, False, "colleen.diaz83@example.com", "(255)-595-8393", 233, "Fremont", True),
    (35, "Lorraine Douglas", 16, False, "lorraine.douglas35@example.com", "(443)-648-9155", 233, "Stockton", True),
    (36, "Addison Olson", 9, False, "addison.olson28@example.com", "(223)-399-7637", 233, "Pleasant Hill", True),
    (37, "Sandra Neal", 14, False, "sandra.neal80@example.com", "(430)-371-7293", 233, "Lake Jackson", True),
    (38, "Toni Rhodes", 14, False, "toni.rhodes11@example.com", "(198)-539-4948", 233, "Lake Jackson", True),
    (39, "Tom Ruiz", 12, False, "tom.ruiz89@example.com", "(102)-834-1602", 233, "Turlock", True),
    (40, "Chester Reed", 11, False, "chester.reed66@example.com", "(979)-904-8902", 233, "Tracy", True),
    (41, "Jeff Lawson", 16, False, "jeff.lawson52@example.com", "(461)-231-7481", 233, "Stockton", False),
)  # fmt: skip
# (name, email, phone, country id, city, company?)
LUJANITA_CUSTOMERS = (
    ("Tienda Lujanita", "hola@lujanita.example.com", "+54 11 4321-0000", 10, "Luján", True),
    ("María Fernández", "maria.fernandez@example.com.ar", "+54 9 11 5555-0101", 10, "Buenos Aires", False),
    ("Juan Pérez", "juan.perez@example.com.ar", "+54 9 351 555-0102", 10, "Córdoba", False),
    ("Lucía Gómez", "lucia.gomez@example.com.ar", "+54 9 341 555-0103", 10, "Rosario", False),
    ("Santiago Rodríguez", "santi.rodriguez@example.com.ar", "+54 9 261 555-0104", 10, "Mendoza", False),
    ("Valentina López", "valen.lopez@example.es", "+34 612 345 105", 68, "Madrid", False),
    ("Javier Martín", "javier.martin@example.es", "+34 622 345 106", 68, "Barcelona", False),
    ("Carmen Ruiz", "carmen.ruiz@example.es", "+34 632 345 107", 68, "Sevilla", False),
    ("Alejandro Hernández", "ale.hernandez@example.com.mx", "+52 55 5555 0108", 156, "Ciudad de México", False),
    ("Sofía Ramírez", "sofia.ramirez@example.com.mx", "+52 33 5555 0109", 156, "Guadalajara", False),
    ("Diego Torres", "diego.torres@example.com.mx", "+52 81 5555 0110", 156, "Monterrey", False),
    ("Camila Díaz", "camila.diaz@example.com.ar", "+54 9 223 555-0111", 10, "Mar del Plata", False),
    ("Almacén Don Pepe", "compras@donpepe.example.com.ar", "+54 11 4700-0112", 10, "Luján", True),
    ("Yerbatería La Tradición", "pedidos@latradicion.example.es", "+34 915 550 113", 68, "Madrid", True),
)  # fmt: skip
# (default code, name, category, list price, cost, on hand, storable, invoice policy)
ODOO_PRODUCTS = (
    ("FURN_7800", "Desk Combination", "Office Furniture", 450.0, 300.0, 20.0, True, "order"),
    ("E-COM06", "Corner Desk Right Sit", "Office Furniture", 147.0, 600.0, 30.0, True, "order"),
    ("E-COM07", "Large Cabinet", "Office Furniture", 320.0, 800.0, 250.0, True, "order"),
    ("E-COM08", "Storage Box", "Office Furniture", 15.8, 14.0, 180.0, True, "delivery"),
    ("E-COM11", "Cabinet with Doors", "Office Furniture", 140.0, 120.0, 60.0, True, "delivery"),
    ("FURN_0001", "Desk Organizer", "Office Furniture", 5.1, 4.0, 0.0, True, "order"),
    ("FURN_0002", "Desk Pad", "Office Furniture", 1.98, 1.5, 0.0, True, "delivery"),
    ("FURN_1118", "Corner Desk Left Sit", "Office Furniture", 85.0, 78.0, 15.0, True, "order"),
    ("FURN_7888", "Desk Stand with Screen", "Office Furniture", 2100.0, 1800.0, 5.0, True, "order"),
    ("FURN_8220", "Four Person Desk", "Office Furniture", 2350.0, 2100.0, 4.0, True, "order"),
    ("SERV_DEL", "Furniture Delivery", "Services", 40.0, 0.0, 0.0, False, "order"),
)  # fmt: skip
LUJANITA_PRODUCTS = (
    ("LUJ-MATE-001", "Mate de calabaza clásico", "Mates", 8500.0, 4200.0, 40.0, True, "order"),
    ("LUJ-MATE-002", "Mate imperial de alpaca", "Mates", 32000.0, 18000.0, 6.0, True, "order"),
    ("LUJ-MATE-003", "Mate de madera de algarrobo", "Mates", 6400.0, 3000.0, 0.0, True, "order"),
    ("LUJ-BOMB-001", "Bombilla pico de loro", "Bombillas", 4500.0, 2000.0, 55.0, True, "order"),
    ("LUJ-BOMB-002", "Bombilla de acero inoxidable", "Bombillas", 2900.0, 1200.0, 0.0, True, "order"),
    ("LUJ-YERB-001", "Yerba mate suave 1 kg", "Yerbas", 3600.0, 2100.0, 120.0, True, "delivery"),
    ("LUJ-YERB-002", "Yerba mate con palo 500 g", "Yerbas", 1900.0, 1100.0, 80.0, True, "delivery"),
    ("LUJ-TERM-001", "Termo de acero 1 L", "Termos", 27500.0, 15000.0, 12.0, True, "order"),
    ("LUJ-KIT-001", "Kit matero de viaje", "Kits", 45000.0, 26000.0, 3.0, True, "order"),
    ("LUJ-SERV-001", "Grabado personalizado", "Servicios", 3000.0, 0.0, 0.0, False, "order"),
)  # fmt: skip


def build_partners(env: Any, scale: int) -> list[int]:
    """Create the contacts; return the ids of the customers orders may use."""
    for rid, name, parent, company, email, phone, country, city, active in ODOO_PARTNERS:
        create_at(env, "res.partner", rid, {
            "name": name, "parent_id": parent or False, "is_company": company, "email": email,
            "phone": phone, "country_id": country, "city": city, "active": active,
            "customer_rank": 1, "lang": "en_US",
        })  # fmt: skip
    tag = env["res.partner.category"].create({"name": "Tienda Lujanita"})
    vip = env["res.partner.category"].create({"name": "Cliente VIP"})
    customers: list[int] = []
    for copy_no in range(scale):
        suffix = f" ({copy_no + 1})" if copy_no else ""
        for index, (name, email, phone, country, city, company) in enumerate(LUJANITA_CUSTOMERS):
            local, domain = email.split("@")
            partner = env["res.partner"].create({
                "name": name + suffix, "is_company": company, "phone": phone,
                "email": f"{local}{'+' + str(copy_no) if copy_no else ''}@{domain}",
                "country_id": country, "city": city, "customer_rank": 1,
                "lang": "es_AR", "category_id": [(6, 0, [tag.id] + ([vip.id] if index % 4 == 1 else []))],
                "active": not (index == 11 and copy_no == 0),
                "comment": pick(PARTNER_NOTES, index),
            })  # fmt: skip
            customers.append(partner.id)
    return [9, 10, 11, 12, 14, 15, 16, 22, 27, *customers]


def build_products(env: Any, scale: int) -> list[int]:
    """Create categories, products and their stock; return the variant ids."""
    categories: dict[str, int] = {}
    root = env.ref("product.product_category_all").id
    for parent_name, names in (("Saleable", ["Office Furniture", "Services"]),
                               ("Lujanita", ["Mates", "Bombillas", "Yerbas", "Termos", "Kits",
                                             "Servicios"])):  # fmt: skip
        parent = env["product.category"].create({"name": parent_name, "parent_id": root})
        for name in names:
            categories[name] = env["product.category"].create({"name": name, "parent_id": parent.id}).id  # fmt: skip
    with_stock = "stock.quant" in env  # the stock module is installed
    stock = env.ref("stock.stock_location_stock").id if with_stock else 0
    variants: list[int] = []
    rows: list[tuple[Any, ...]] = list(ODOO_PRODUCTS) + [
        (f"{code}-{n}" if n else code, f"{name} {n + 1}" if n else name, *rest)
        for n in range(scale) for code, name, *rest in LUJANITA_PRODUCTS
    ]  # fmt: skip
    for code, name, categ, price, cost, qty, storable, policy in rows:
        vals = {"name": name, "default_code": code, "categ_id": categories[categ],
                "list_price": price, "standard_price": cost, "invoice_policy": policy,
                "type": "consu" if storable or env.major >= 18 else "service"}  # fmt: skip
        if not storable:
            vals["type"] = "service"
        elif env.major >= 18:
            if with_stock:  # is_storable is the stock module's
                vals["is_storable"] = True
        else:
            vals["type"] = "product"
        template = env["product.template"].create(vals)
        variant = template.product_variant_id
        variants.append(variant.id)
        if qty and with_stock:
            env["stock.quant"].create({"product_id": variant.id, "location_id": stock, "quantity": qty})  # fmt: skip
    return variants
