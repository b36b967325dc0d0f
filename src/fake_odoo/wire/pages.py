"""HTML error pages of the HTTP layer that depend on the server's version.

Odoo 19 (as captured) answers an unknown URL with werkzeug's bare 404 page; the captured
Odoo 17 server renders ``http_routing.404`` inside the frontend layout instead: a full
page titled "Odoo", status 404, ``Content-Type: text/html;charset=utf-8`` (no space:
Odoo's own ``Response``).  See meta_version and err_json2_not_available of the 17 batch.
"""

from __future__ import annotations

import secrets
import time
from html import escape
from typing import TYPE_CHECKING

from starlette.responses import Response

from fake_odoo.wire.errors import werkzeug_html
from fake_odoo.wire.versions import website_404_page

if TYPE_CHECKING:
    from fake_odoo.handle import FakeOdoo

__all__ = ["HTML_CONTENT_TYPE", "not_found_page"]

#: werkzeug's own content type (with a space), used by its bare error pages
HTML_CONTENT_TYPE = "text/html; charset=utf-8"
_ODOO_HTML = "text/html;charset=utf-8"

_PAGE = """<!DOCTYPE html>
<html>
    <head>
        <meta charset="utf-8"/>
        <meta http-equiv="X-UA-Compatible" content="IE=edge"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>Odoo</title>
        <link type="image/x-icon" rel="shortcut icon" href="/web/static/img/favicon.ico"/>
        <script id="web.layout.odooscript" type="text/javascript">
            var odoo = {{
                csrf_token: "{csrf}",
                debug: "",
            }};
        </script>
    </head>
    <body>
        <div id="wrapwrap" class="  ">
                <header id="top" data-anchor="true">
                <nav class="navbar navbar-expand navbar-light bg-light">
                    <div class="container">
                        <a href="/" class="navbar-brand logo">
                            <img src="/logo.png?company=1" alt="Logo of {company}" title="{company}"/>
                        </a>
                        <ul id="top_menu" class="nav navbar-nav ms-auto">
            <li class="nav-item o_no_autohide_item">
                <a href="/web/login" class="nav-link">Sign in</a>
            </li>
                        </ul>
                    </div>
                </nav>
        </header>
                <main>
            <div id="wrap">
                <div class="oe_structure oe_empty">
                    <section class="s_text_image pt104 pb104" data-snippet="s_image_text">
                        <div class="container">
                            <div class="row align-items-center">
                                <div class="col-lg-8 text-lg-start text-center my-auto">
                                    <h1 class="visually-hidden">Error 404</h1>
                                    <h2>We couldn't find the page you're looking for!</h2>
                                    <p></p>
                                    <p><b>Don't panic.</b> If you think it's our mistake, please send us a message on <a href="/contactus">this page</a>.</p>
                                </div>
                            </div>
                        </div>
                    </section>
                </div>
            </div>
                </main>
                <footer id="bottom" data-anchor="true" class="bg-light o_footer">
                    <div class="o_footer_copyright">
                        <div class="container py-3">
                            <span class="o_footer_copyright_name me-2">Copyright &copy; <span itemprop="name">{company}</span></span>
                        </div>
                    </div>
                </footer>
            </div>
        </body>
</html>"""  # noqa: E501


def _company_name(fake: FakeOdoo) -> str:
    row = fake.db.row("res.company", 1) if "res.company" in fake.db.registry else None
    return str(row.get("name") or "") if row else ""


def not_found_page(fake: FakeOdoo) -> Response:
    """The 404 page of an unknown URL, as the served version renders it."""
    if not website_404_page(fake.db.major):
        return Response(werkzeug_html(404), 404, headers={"Content-Type": HTML_CONTENT_TYPE})
    # Odoo's csrf token: an HMAC (hex) + "o" + its expiry timestamp
    csrf = f"{secrets.token_hex(20)}o{int(time.time()) + 365 * 24 * 3600}"
    body = _PAGE.format(csrf=csrf, company=escape(_company_name(fake))).encode()
    return Response(body, 404, headers={"Content-Type": _ODOO_HTML})
