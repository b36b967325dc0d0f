"""Launch one mutant: ``python run.py NAME [odoo-mcp serve flags]``; ``--list`` lists them."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from registry import all_mutants


def main() -> None:
    mutants = all_mutants()
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help", "--list"):
        for name, m in mutants.items():
            print(f"{name}: kills {', '.join(m.kills)}: {m.defect}")
        return
    name = sys.argv.pop(1)
    if name not in mutants:
        raise SystemExit(f"no mutant named {name!r} (run.py --list)")
    mutants[name].apply()
    from _sabotage import serve

    serve()


if __name__ == "__main__":
    main()
