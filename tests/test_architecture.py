"""The layout docs/architecture.md describes, checked against the code.

Read from the source with :mod:`ast`, not by importing it: every ``import`` and ``from … import`` of a goat module
counts, inside functions too, and so does a goat module named in a string (``lazy()``'s tables,
``importlib.import_module``).  Two kinds of import do not count: the display hooks (``_repr_svg_``,
``_repr_html_``), which import the drawing modules when a notebook asks for a picture, as python-chess's do; and
imports under ``if TYPE_CHECKING:``, which never run.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "goat"
DISPLAY_HOOKS = {"_repr_svg_", "_repr_html_", "_repr_png_", "_repr_pretty_"}
#: Names with a leading underscore that are public by their owner's documentation.
PUBLIC_ANYWAY = {"os._exit"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, path in MODULES.items()}


def counted_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` except those inside display hooks and ``if TYPE_CHECKING:`` blocks."""
    waiting = [tree]
    while waiting:
        node = waiting.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in DISPLAY_HOOKS:
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            waiting.extend(node.orelse)
            continue
        yield node
        waiting.extend(ast.iter_child_nodes(node))


def absolute(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imports(module: str) -> Iterator[tuple[str, str | None, int]]:
    """(goat module imported, name taken from it or None, line) for each import in ``module``."""
    for node in counted_nodes(TREES[module]):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            source = absolute(module, node)
            if source not in MODULES:
                continue
            for alias in node.names:
                if f"{source}.{alias.name}" in MODULES:
                    yield f"{source}.{alias.name}", None, node.lineno
                else:
                    yield source, alias.name, node.lineno
        elif named_lazily(node):
            for item in ast.walk(node):
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    for name in (item.value, f"{module}.{item.value}"):
                        if "." in name and name in MODULES:
                            yield name, None, item.lineno


def named_lazily(node: ast.AST) -> bool:
    """Whether ``node`` names modules to import later: a call of ``lazy`` or ``import_module``, or a lazy table."""
    if isinstance(node, ast.Call):
        function = node.func
        return (function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")) in (
            "lazy",
            "import_module",
        )
    return isinstance(node, ast.Assign) and any(getattr(target, "id", "") == "_LAZY" for target in node.targets)


GRAPH = {module: {target for target, _, _ in imports(module) if target != module} for module in MODULES}


def cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(GRAPH[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in MODULES:
        if module not in index:
            visit(module)
    return found


def test_the_modules_import_one_another_without_a_cycle() -> None:
    assert cycles() == []


def test_no_private_name_is_imported_from_another_module() -> None:
    found = [
        f"{module}:{line} imports {name} from {source}"
        for module in MODULES
        for source, name, line in imports(module)
        if name is not None and name.startswith("_") and not name.startswith("__")
    ]
    assert found == []


PRIVATE = re.compile(r"_[a-z0-9]\w*$")


def own_private_names(tree: ast.AST) -> set[str]:
    """The private attributes a module defines: set on ``self``, or assigned or declared in a class body."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            names.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                target = getattr(statement, "target", None)
                targets = statement.targets if isinstance(statement, ast.Assign) else [target]
                names |= {target.id for target in targets if isinstance(target, ast.Name)}
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(statement.name)
    return {name for name in names if PRIVATE.match(name)}


def test_no_private_attribute_of_another_module_is_read() -> None:
    """``x._name`` only where this module defines ``_name`` (python-chess's public engine attributes, not
    reach-ins); besides, the names in PUBLIC_ANYWAY."""
    found = []
    for module, tree in TREES.items():
        own = own_private_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and PRIVATE.match(node.attr) and node.attr not in own:
                text = ast.unparse(node)
                if text not in PUBLIC_ANYWAY and text not in MODULES:
                    found.append(f"{module}:{node.lineno} reads {text}")
    assert found == []


def test_the_package_root_is_imported_by_no_module_it_imports() -> None:
    """Lower modules never import ``goat`` itself: a module the root needs (directly, lazily or through others)
    that imported the root would be a cycle; the test above finds those, this one names the rule."""
    below = set()
    waiting = ["goat"]
    while waiting:
        for target in GRAPH[waiting.pop()]:
            if target not in below:
                below.add(target)
                waiting.append(target)
    assert sorted(module for module in below if "goat" in GRAPH[module] and module != "goat") == []


def test_the_kernel_imports_nothing_of_goat() -> None:
    assert GRAPH["goat._kernel"] == set()


def test_the_core_knows_nothing_of_bots_or_the_arena() -> None:
    core = {"goat.cards", "goat.moves", "goat.state", "goat.rules", "goat.view", "goat.scoring", "goat._kernel"}
    for module in core:
        assert not {target for target in GRAPH[module] if target.startswith(("goat.arena", "goat.bots"))}, module


@pytest.mark.parametrize("module", sorted(MODULES))
def test_the_architecture_page_names_every_module(module: str) -> None:
    page = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert f"`{module}`" in page or module.rpartition(".")[2] == "__main__", f"{module} is not on the page"
