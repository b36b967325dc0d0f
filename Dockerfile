# odoo-mcp over streamable HTTP. Build: docker build -t odoo-mcp .
# Run:   docker run -p 8080:8080 -e ODOO_URL=... -e ODOO_DB=... -e ODOO_USERNAME=... \
#          -e ODOO_API_KEY=... odoo-mcp
# Every setting is an environment variable (docs/deployment.md); the image also holds the
# fake Odoo (`--entrypoint fake-odoo`) and the conformance kit's command (without its extra).

# --- builder: the wheel, from the same sources a release is built from
FROM python:3.11-slim AS builder
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
COPY conformance ./conformance
COPY features ./features
COPY spec ./spec
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /dist .

# --- the server: the wheel alone, run as an unprivileged user
FROM python:3.11-slim
RUN useradd --create-home --uid 10001 odoo-mcp
COPY --from=builder /dist/ /tmp/dist/
# with the redis extra: ODOO_MCP_STATE_URL shares rate limits and session owners among replicas
RUN wheel="$(ls /tmp/dist/*.whl)" && pip install --no-cache-dir "${wheel}[redis]" && rm -rf /tmp/dist
USER odoo-mcp
WORKDIR /home/odoo-mcp
# Listen on every interface of the container: Bearer authentication is then always on
# (ODOO_MCP_HTTP_AUTH cannot turn it off). Flags would beat these, so CMD gives none of them.
ENV PYTHONUNBUFFERED=1 \
    ODOO_MCP_HOST=0.0.0.0 \
    ODOO_MCP_PORT=8080 \
    ODOO_MCP_PATH=/mcp
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('ODOO_MCP_PORT', '8080') + '/health', timeout=4)"]
ENTRYPOINT ["odoo-mcp"]
CMD ["serve", "--transport", "http"]
