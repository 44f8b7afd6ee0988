"""An import-linter contract: no module takes a private name (``_x``) from another layer.

A layer is a subpackage of the root package (``arcstar.search``, ``arcstar.turning``, ...);
modules directly in the root (``arcstar.outcomes``) are layers of their own. Within a layer a
private helper may be shared; across layers only public names are an interface. The check reads
each module's source with ``ast`` (import-linter's graph knows modules, not names).
"""

from __future__ import annotations

import ast
import importlib.util
from typing import Any

from importlinter import Contract, ContractCheck, fields, output


def _layer(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2])


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


class PrivateNamesContract(Contract):
    """Options: ``root`` (the package whose layers are compared)."""

    root = fields.StringField()

    def check(self, graph: Any, verbose: bool) -> ContractCheck:
        root = str(self.root)
        found = []
        for module in sorted(m for m in graph.modules if m == root or m.startswith(root + ".")):
            spec = importlib.util.find_spec(module)
            if spec is None or not spec.origin or not spec.origin.endswith(".py"):
                continue
            is_package = spec.origin.endswith("__init__.py")
            with open(spec.origin, encoding="utf-8") as f:
                tree = ast.parse(f.read(), spec.origin)
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom):
                    target = _absolute(node, module, is_package)
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.Import):
                    target, names = "", [a.name for a in node.names]
                else:
                    continue
                for name in names:
                    full = f"{target}.{name}" if target else name
                    private = [p for p in full.split(".") if p.startswith("_") and not p.startswith("__")]
                    if private and full.startswith(root + ".") and _layer(full) != _layer(module):
                        found.append(f"{module}:{node.lineno} imports {full}")
                        output.verbose_print(verbose, f"{module}:{node.lineno} imports {full}")
        return ContractCheck(kept=not found, metadata={"found": found})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for line in check.metadata["found"]:
            output.print_error(line)
            output.new_line()
