"""The package's layering: no import cycle inside parbleu, metrics reached through their API.

The import graph is read from the source with ``ast``: every ``import`` and ``from ... import``
anywhere in a module: at module level, inside functions (a function-level import still runs,
and still ties the two modules together) and under ``if TYPE_CHECKING:`` (a type-only import
still ties the two modules' designs together: a cycle there is a cycle hidden from Python).
An import of ``a.b.c`` also depends on the packages ``a.b`` whose ``__init__`` it runs, unless
the importer is inside that package (it is then already being initialized), and ``parbleu``
itself is left out (every module is below it): so no module but ``parbleu/__init__.py`` and
``__main__.py`` may reach anything through the root package (``import parbleu``,
``from parbleu import X``, ``getattr(parbleu, ...)``), which would hide an edge.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import parbleu

PACKAGE = Path(parbleu.__file__).resolve().parent


def module_names(root: Path) -> dict[str, Path]:
    """``{dotted module name: file}`` of every ``.py`` file under ``root`` (package ``parbleu``)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(["parbleu", *parts])] = path
    return out


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, wherever it is (``TYPE_CHECKING`` blocks too)."""
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def imported_names(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, str]]:
    """``(module, imported name)`` of each import of a module (name ``""``: the module)."""
    is_pkg = path.name == "__init__.py"
    out = []
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(alias.name, "") for alias in node.names]
            continue
        base = node.module or ""
        if node.level:
            here = name.split(".") if is_pkg else name.split(".")[:-1]
            up = here[: len(here) - (node.level - 1)]
            base = ".".join(up + ([base] if base else []))
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            out.append((sub, "") if sub in modules else (base, alias.name))
    return out


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the parbleu modules its imports name (see the module docstring)."""
    modules = module_names(root)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        own = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for target, _ in imported_names(name, path, modules):
            parts = target.split(".")
            for k in range(2, len(parts) + 1):
                dep = ".".join(parts[:k])
                inside = own == dep or own.startswith(dep + ".")
                if dep in modules and dep != name and (k == len(parts) or not inside):
                    graph[name].add(dep)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph (``[a, b, ..., a]``), or ``None`` if it is acyclic."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = dfs(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = dfs(node)
            if found:
                return found
    return None


def test_no_import_cycle_inside_parbleu() -> None:
    cycle = find_cycle(import_graph(PACKAGE))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_cycles(tmp_path: Path) -> None:
    # The test above can fail: a two-module cycle through a function-level import is found,
    # and so is one through a TYPE_CHECKING import.
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "a.py").write_text("from . import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import x\n")
    (tmp_path / "c.py").write_text("from .d import y\n")
    (tmp_path / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import z\n"
    )
    graph = import_graph(tmp_path)
    assert find_cycle(graph) == ["parbleu.a", "parbleu.b", "parbleu.a"]
    del graph["parbleu.a"], graph["parbleu.b"]
    assert find_cycle(graph) == ["parbleu.c", "parbleu.d", "parbleu.c"]
    del graph["parbleu.c"], graph["parbleu.d"]
    assert find_cycle(graph) is None


#: Modules that may use the root package: it is what they build (or run).
ROOT_USERS = {"parbleu", "parbleu.__main__"}


def root_package_uses(name: str, path: Path, modules: dict[str, Path]) -> list[str]:
    """Where a module reaches something through the root package ``parbleu`` (``line: code``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bad = any(a.name == "parbleu" for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_pkg else name.split(".")[:-1]
                up = here[: len(here) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            # ``from parbleu import errors`` names a module; ``from parbleu import BLEU`` does not.
            # ``_core`` is the compiled extension (no .py file).
            bad = base == "parbleu" and any(
                f"parbleu.{a.name}" not in modules and a.name != "_core" for a in node.names
            )
        elif isinstance(node, ast.Call):
            bad = (
                isinstance(node.func, ast.Name)
                and node.func.id == "getattr"
                and bool(node.args)
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id == "parbleu"
            )
        else:
            continue
        if bad:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_root_package_is_no_back_door() -> None:
    """Inside parbleu, nothing is reached through ``parbleu`` itself: that import is no edge of
    the graph above, so a cycle through it would go unseen."""
    modules = module_names(PACKAGE)
    found = {
        name: uses
        for name, path in modules.items()
        if name not in ROOT_USERS and (uses := root_package_uses(name, path, modules))
    }
    assert not found, f"modules using the root package: {found}"


def test_the_back_door_finder_finds_them(tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "errors.py").write_text("")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "__init__.py").write_text("from .. import errors\n")
    (sub / "a.py").write_text(
        "import parbleu\nfrom .. import BLEU\nfrom parbleu import errors, _core\n"
        "def f():\n    return getattr(parbleu, 'CHRF')\n"
    )
    modules = module_names(tmp_path)
    assert root_package_uses("parbleu.sub", sub / "__init__.py", modules) == []
    uses = root_package_uses("parbleu.sub.a", sub / "a.py", modules)
    assert [u.split(":")[0] for u in uses] == ["1", "2", "5"]


#: Modules outside ``parbleu.metrics`` allowed to import BLEU, CHRF or TER by name, and why.
CONCRETE_METRIC_USERS = {
    "parbleu": "public re-export",
    "parbleu.compat": "SacreBLEU's function API (corpus_bleu, ...) constructs its metric",
    "parbleu.flavors.nltk.chrf_score": "NLTK's chrF counts characters with CHRF(word_order=0)",
    "parbleu.integrations.evaluate": "one wrapper per metric, constructed from its options",
    "parbleu.integrations.torchmetrics": "one wrapper per metric, constructed from its options",
    "parbleu.integrations.torch_ids": "takes a BLEU object (type annotation only)",
}


def test_metrics_are_used_through_their_api() -> None:
    """No module outside metrics/ names BLEU, CHRF or TER but the constructors listed above.

    Whatever else a module needs of a metric (its core scorer, pair table, direction, word
    tokenizer, ...) is a method or attribute of ``Metric``; names come from the metric
    registry (``parbleu.metrics.registry``).
    """
    modules = module_names(PACKAGE)
    concrete = {"BLEU", "CHRF", "TER"}
    found = {}
    for name, path in modules.items():
        if name == "parbleu.metrics" or name.startswith("parbleu.metrics."):
            continue
        names = {
            n for mod, n in imported_names(name, path, modules) if mod.startswith("parbleu.metrics")
        }
        if names & concrete and name not in CONCRETE_METRIC_USERS:
            found[name] = sorted(names & concrete)
    assert not found, f"modules importing a concrete metric: {found}"


@pytest.mark.parametrize("name", sorted(CONCRETE_METRIC_USERS))
def test_allowed_concrete_users_exist(name: str) -> None:
    assert name in module_names(PACKAGE)


def package_of(module: str, modules: dict[str, Path]) -> str:
    """The package a module belongs to, one level below ``parbleu`` (``parbleu.metrics``).

    Top-level modules (``parbleu.errors``) are each their own unit.
    """
    parts = module.split(".")
    return ".".join(parts[:2])


def package_graph(root: Path) -> dict[str, set[str]]:
    """Package -> the packages its modules import (an edge inside a package is dropped)."""
    modules = module_names(root)
    graph: dict[str, set[str]] = {}
    for mod, deps in import_graph(root).items():
        src = package_of(mod, modules)
        graph.setdefault(src, set())
        for dep in deps:
            dst = package_of(dep, modules)
            if dst not in (src, "parbleu"):
                graph[src].add(dst)
                graph.setdefault(dst, set())
    graph.pop("parbleu", None)
    for deps in graph.values():
        deps.discard("parbleu")
    return graph


def test_no_import_cycle_between_packages() -> None:
    """``metrics`` <-> ``flavors`` (ROUGE's engine, CIDEr-D) was such a cycle, unseen by the
    module graph because each module edge pointed at a different module."""
    cycle = find_cycle(package_graph(PACKAGE))
    assert cycle is None, "package cycle: " + " -> ".join(cycle or [])


def test_the_package_graph_finds_cycles(tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text("")
    for pkg in ("a", "b"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").write_text("")
    (tmp_path / "a" / "x.py").write_text("from ..b import y\n")
    (tmp_path / "b" / "y.py").write_text("def f():\n    from ..a import z\n")
    (tmp_path / "a" / "z.py").write_text("")
    assert find_cycle(package_graph(tmp_path)) == ["parbleu.a", "parbleu.b", "parbleu.a"]


def private_reaches(root: Path) -> dict[str, list[str]]:
    """Imports of a private name (``_x``) or private module from another package."""
    modules = module_names(root)
    found: dict[str, list[str]] = {}
    for name, path in modules.items():
        own = package_of(name, modules)
        for mod, attr in imported_names(name, path, modules):
            if not mod.startswith("parbleu.") or package_of(mod, modules) == own:
                continue
            if mod == "parbleu._core" or attr == "_core":
                continue  # the compiled extension is every package's
            inner = mod.split(".")[2:]  # below the package: a private module is private
            private = any(p.startswith("_") and not p.startswith("__") for p in inner)
            if private or (attr.startswith("_") and not attr.startswith("__")):
                found.setdefault(name, []).append(f"{mod}{':' + attr if attr else ''}")
    return found


def test_no_private_name_is_imported_across_packages() -> None:
    """A package's ``_private`` modules and names are its own: others use what it exports."""
    found = private_reaches(PACKAGE)
    assert not found, f"private names imported across packages: {found}"


def test_the_private_finder_finds_them(tmp_path: Path) -> None:
    (tmp_path / "__init__.py").write_text("")
    for pkg in ("a", "b"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").write_text("")
    (tmp_path / "a" / "_hidden.py").write_text("")
    (tmp_path / "a" / "pub.py").write_text("")
    (tmp_path / "b" / "x.py").write_text(
        "from ..a._hidden import f\nfrom ..a.pub import _g, h\nfrom . import y\n"
    )
    (tmp_path / "b" / "y.py").write_text("from ._own import q\n")
    (tmp_path / "b" / "_own.py").write_text("")
    assert private_reaches(tmp_path) == {"parbleu.b.x": ["parbleu.a._hidden:f", "parbleu.a.pub:_g"]}


def test_nothing_below_the_cli_names_it() -> None:
    """The command line depends on the library, never the reverse, not even by a
    ``"parbleu.cli...:attr"`` string resolved later (the flavor registry once named its
    runners so)."""
    found = []
    for name, path in module_names(PACKAGE).items():
        if name.startswith("parbleu.cli") or name in ROOT_USERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and text.startswith("parbleu.cli"):
                found.append(f"{name}: {text!r}")
    assert not found, found


def test_flavor_entries_are_built_with_keywords() -> None:
    import sys

    from parbleu.cli.flavor import RUNNERS
    from parbleu.flavors import FlavorInfo, flavor_names, get_flavor

    assert set(RUNNERS) == set(flavor_names())  # every built-in flavor runs from the CLI
    if sys.version_info >= (3, 10):
        info = get_flavor("nltk")
        with pytest.raises(TypeError):
            FlavorInfo(info.name, info.module)  # type: ignore[misc]
