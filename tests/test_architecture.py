"""The shape of the package, read from its source: no import circles, no private names borrowed
across modules, layers that only depend downwards, no caches keyed on object ids.

Every module of ``rankviz/`` is parsed with :mod:`ast`; every import counts, including those
inside functions (a lazy import hides a circle from Python, not from a reader). Rules:

* **circles**: no cycle in the graph of rankviz modules (the cycle is reported with the line
  of each import);
* **private names**: ``from rankviz.a import _x`` (or ``a._x`` on an imported rankviz
  module) from another module: what two modules share is public, with a docstring. Private
  *modules* (``rankviz._lazy``, ``rankviz.metrics._latex``) are internal to the package,
  not to one module, and may be imported within rankviz;
* **layers** (:data:`LAYERS`): ``rankviz.registry`` imports nothing of rankviz (it names
  functions by module path); ``rankviz.metrics`` (kernels included) depends on nothing of
  rankviz but itself, the registry and ``rankviz._lazy``; ``rankviz.trec`` on nothing but itself and
  ``rankviz._lazy`` (reading files needs no metrics and no evaluation; evaluation depends on trec, never the reverse); only
  ``rankviz.ui`` imports streamlit, only ``rankviz.ui`` and ``rankviz.charts`` import altair;
  nothing outside ``rankviz.ui`` imports ``rankviz.ui``;
* **identity keys**: no module calls the builtin ``id()``: a cache keyed on an object's id
  (or its buffers' addresses) is a hidden channel between functions; pass a value instead.

Today's violations in code other branches are fixing are listed in :data:`KNOWN_VIOLATIONS`.
"""

from __future__ import annotations

import ast
import importlib
import textwrap
from collections import deque
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Violations that exist today in files other branches of issue 14 are changing. Each entry is
# the exact key the checker reports. The lead removes the entries as those branches merge, and
# empties the list at the end: a violation not listed here fails its test, and an entry that no
# longer occurs fails test_every_known_violation_still_occurs, so the list cannot outlive them.
KNOWN_VIOLATIONS = frozenset()  # empty: every violation found once has been mended

# (package, what of rankviz it may import besides itself, why)
LAYERS = (
    # The registry is the catalogue every layer reads (the metrics' public names, the kernels' view):
    # it names the functions and kernels by module path and imports no rankviz module itself.
    ("rankviz.registry", ("rankviz._lazy",), "the registry is data: it names functions by module path"),
    ("rankviz.metrics", ("rankviz._lazy", "rankviz.registry"), "per-query metrics and their kernels are the bottom layer"),
    ("rankviz.trec", ("rankviz._lazy",), "reading qrels and runs needs neither metrics nor evaluation"),
)
# third-party package -> the rankviz packages that may import it
RESTRICTED_LIBRARIES = {
    "streamlit": ("rankviz.ui",),
    "altair": ("rankviz.ui", "rankviz.charts"),
}
# rankviz package -> the only rankviz packages that may import it
RESTRICTED_PACKAGES = {
    "rankviz.ui": ("rankviz.ui",),
}


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


# ---------------------------------------------------------------------------------------------
# Reading the import graph


@dataclass(frozen=True)
class Import:
    """One import of a module: ``target`` is the module it loads, ``name`` the private attribute
    it takes from that module (``from target import _x`` or ``alias._x``), if any; ``implicit``
    for a package Python initialises on the way to the target (a circle may pass through it)."""

    importer: str
    target: str
    line: int
    name: str | None = None
    implicit: bool = False


@dataclass(frozen=True)
class Package:
    """The modules of a package directory (``{dotted name: path}``) and each one's imports."""

    modules: dict
    imports: dict

    def where(self, module: str, line: int) -> str:
        """``path:line`` of a module's line, the path relative to the directory above the package."""
        top = self.modules[module.split(".")[0]].parent.parent
        return f"{self.modules[module].relative_to(top).as_posix()}:{line}"

    @classmethod
    def read(cls, directory: Path, resolve_lazy: bool = True) -> Package:
        """Parse every ``.py`` under ``directory`` (a package named after the directory).

        ``from pkg import name`` where ``name`` is no submodule is followed, when
        ``resolve_lazy``, to the module that defines it (a package serves many names lazily,
        through ``rankviz._lazy``): the package is imported and the name's ``__module__`` read.
        """
        modules = {}
        for path in sorted(directory.rglob("*.py")):
            parts = list(path.relative_to(directory.parent).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
        package = cls(modules, {})
        for module, path in modules.items():
            package.imports[module] = package._imports_of(module, path, resolve_lazy)
        return package

    def is_package(self, module: str) -> bool:
        return self.modules[module].name == "__init__.py"

    def _imports_of(self, module: str, path: Path, resolve_lazy: bool) -> list[Import]:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found: list[Import] = []
        aliases: dict[str, str] = {}  # local name -> rankviz module it is bound to
        top = module.split(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    found.append(Import(module, alias.name, node.lineno))
                    if alias.asname:
                        aliases[alias.asname] = alias.name
                    found += self._parents(module, alias.name, node.lineno)
            elif isinstance(node, ast.ImportFrom):
                source = self._absolute(module, node)
                for alias in node.names:
                    submodule = f"{source}.{alias.name}"
                    if submodule in self.modules:
                        found.append(Import(module, submodule, node.lineno))
                        aliases[alias.asname or alias.name] = submodule
                        found += self._parents(module, submodule, node.lineno)
                        continue
                    target = source
                    if resolve_lazy and source in self.modules and self.is_package(source):
                        target = self._defining_module(source, alias.name)
                    private = alias.name if _private(alias.name) else None
                    found.append(Import(module, target, node.lineno, private if target == source else None))
                    if private and target != source:
                        # A private name a package serves from another module: borrowed all the same.
                        found.append(Import(module, source, node.lineno, private))
                    found += self._parents(module, target, node.lineno)
        # alias._x on an imported rankviz module is a private name borrowed too.
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and _private(node.attr)
                    and node.value.id in aliases and within(aliases[node.value.id], top)
                    and f"{aliases[node.value.id]}.{node.attr}" not in self.modules):
                found.append(Import(module, aliases[node.value.id], node.lineno, node.attr))
        return found

    def _parents(self, importer: str, target: str, line: int) -> list[Import]:
        """Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first: edges to the
        packages above the target that do not contain the importer (a module's own packages are
        already being imported when it runs)."""
        parts = target.split(".")
        return [Import(importer, ".".join(parts[:n]), line, implicit=True) for n in range(1, len(parts))
                if ".".join(parts[:n]) in self.modules and not within(importer, ".".join(parts[:n]))]

    def _absolute(self, module: str, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = module.split(".") if self.is_package(module) else module.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        return ".".join(base + ([node.module] if node.module else []))

    def _defining_module(self, package: str, name: str) -> str:
        defined_in = _defined_in(package, name)
        return defined_in if defined_in in self.modules else package

    def edges(self) -> dict[str, dict[str, int]]:
        """rankviz module -> {rankviz module it imports: line of the first such import}."""
        graph: dict[str, dict[str, int]] = {module: {} for module in self.modules}
        for module, imports in self.imports.items():
            for found in imports:
                if found.target in self.modules and found.target != module:
                    graph[module].setdefault(found.target, found.line)
        return graph


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@cache
def _defined_in(package: str, name: str) -> str | None:
    """The module that defines ``package.name`` (served lazily or re-exported), or None."""
    try:
        value = getattr(importlib.import_module(package), name)
    except Exception:  # noqa: BLE001 - an unresolvable name stays an edge to the package
        return None
    if isinstance(value, type(importlib)):
        return value.__name__
    return getattr(value, "__module__", None)


# ---------------------------------------------------------------------------------------------
# The rules: each returns {violation key: message with file and line}


def circles(package: Package) -> dict[str, str]:
    graph = package.edges()
    found = {}
    for component in _strongly_connected(graph):
        if len(component) < 2:
            continue
        members = sorted(component)
        cycle = _shortest_cycle(graph, members[0], set(component))
        steps = [f"{a} -> {b} ({package.where(a, graph[a][b])})" for a, b in pairwise(cycle)]
        found["import circle: " + ", ".join(members)] = "import circle:\n    " + "\n    ".join(steps)
    return found


def private_names(package: Package) -> dict[str, str]:
    found = {}
    for module, imports in package.imports.items():
        for each in imports:
            if each.name and each.target != module and within(each.target, module.split(".")[0]):
                key = f"private name: {module} imports {each.name} from {each.target}"
                found.setdefault(key, f"{key} ({package.where(module, each.line)})")
    return found


def layers(package: Package) -> dict[str, str]:
    found = {}
    for module, imports in package.imports.items():
        for each in imports:
            if each.implicit:  # the import that led there is checked itself
                continue
            for layer, allowed, why in LAYERS:
                if (within(module, layer) and within(each.target, "rankviz") and not within(each.target, layer)
                        and not any(within(each.target, other) for other in allowed)):
                    key = f"layer: {module} imports {each.target}"
                    found.setdefault(key, f"{key} ({package.where(module, each.line)}): {why}")
            for library, users in RESTRICTED_LIBRARIES.items():
                if within(each.target, library) and not any(within(module, user) for user in users):
                    key = f"layer: {module} imports {library}"
                    found.setdefault(key, f"{key} ({package.where(module, each.line)}): only {', '.join(users)} may")
            for restricted, users in RESTRICTED_PACKAGES.items():
                if within(each.target, restricted) and not any(within(module, user) for user in users):
                    key = f"layer: {module} imports {each.target}"
                    found.setdefault(key, f"{key} ({package.where(module, each.line)}): only {', '.join(users)} "
                                          f"may import {restricted}")
    return found


def identity_keys(package: Package) -> dict[str, str]:
    found = {}
    for module, path in package.modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "id":
                key = f"identity key: {module} calls id()"
                found.setdefault(key, f"{key} ({package.where(module, node.lineno)}): pass a value rather than "
                                      "key a cache on an object's identity")
    return found


RULES = {"circles": circles, "private_names": private_names, "layers": layers, "identity_keys": identity_keys}


def _strongly_connected(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Tarjan's strongly connected components."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in graph[node]:
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def _shortest_cycle(graph: dict[str, dict[str, int]], start: str, members: set[str]) -> list[str]:
    """The shortest path start -> ... -> start inside one strongly connected component."""
    previous: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for successor in sorted(graph[node]):
            if successor == start:
                path = [node]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return [*reversed(path), start]
            if successor in members and successor not in previous:
                previous[successor] = node
                queue.append(successor)
    raise AssertionError(f"{start} is in no cycle")  # pragma: no cover - start is in a component


@pytest.fixture(scope="module")
def rankviz_package() -> Package:
    return Package.read(ROOT / "rankviz")


@pytest.mark.parametrize("rule", sorted(RULES))
def test_rankviz_keeps_the_rule(rankviz_package, rule):
    found = RULES[rule](rankviz_package)
    new = sorted(message for key, message in found.items() if key not in KNOWN_VIOLATIONS)
    assert not new, "\n".join(new)


def test_every_known_violation_still_occurs(rankviz_package):
    """An entry for a violation that was fixed must go: the list only shrinks."""
    found = set().union(*(rule(rankviz_package) for rule in RULES.values()))
    gone = sorted(KNOWN_VIOLATIONS - found)
    assert not gone, "fixed, remove from KNOWN_VIOLATIONS:\n" + "\n".join(gone)


def test_the_trec_readers_stand_alone(rankviz_package):
    """Issue 14: readers and tables share rankviz.trec.formats and no longer import each other's
    private names; nothing in rankviz.trec knows about evaluation."""
    graph = rankviz_package.edges()
    assert "rankviz.trec.readers" not in graph["rankviz.trec.tables"]
    assert {"rankviz.trec.formats", "rankviz.trec.duplicates"} <= set(graph["rankviz.trec.tables"])
    assert not [target for module in graph if within(module, "rankviz.trec") for target in graph[module]
                if within(target, "rankviz.evaluation")]


# ---------------------------------------------------------------------------------------------
# The checker itself, on a small package written for the purpose


def write_package(directory: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return directory / next(iter(files)).split("/")[0]


def test_the_checker_finds_a_circle_hidden_in_a_function(tmp_path):
    root = write_package(tmp_path, {
        "toy/__init__.py": "",
        "toy/a.py": "from toy.b import value\n",
        "toy/b.py": "value = 1\n\ndef later():\n    from toy import c\n",
        "toy/c.py": "import toy.a\n",
        "toy/d.py": "from toy import b\n",
    })
    found = circles(Package.read(root, resolve_lazy=False))
    assert list(found) == ["import circle: toy.a, toy.b, toy.c"]
    assert found["import circle: toy.a, toy.b, toy.c"] == (
        "import circle:\n    toy.a -> toy.b (toy/a.py:1)\n    toy.b -> toy.c (toy/b.py:4)\n    toy.c -> toy.a (toy/c.py:1)")


def test_the_checker_finds_private_names_layers_and_identity_keys(tmp_path):
    root = write_package(tmp_path, {
        "rankviz/__init__.py": "",
        "rankviz/_lazy.py": "",
        "rankviz/metrics/__init__.py": "from rankviz import _lazy\n",
        "rankviz/metrics/binary.py": "def _helper():\n    pass\n\ndef _other():\n    pass\n\ndef helper():\n    pass\n",
        "rankviz/metrics/graded.py": (
            "from rankviz.metrics.binary import _helper, helper\n"
            "from . import binary, _private_module\n\nbinary._other()\n\ndef late():\n    import rankviz.evaluation.x\n"),
        "rankviz/metrics/_private_module.py": "",
        "rankviz/evaluation/__init__.py": "",
        "rankviz/evaluation/x.py": "import streamlit as st\n_CACHE = {}\n\ndef f(frame):\n    _CACHE[id(frame)] = 1\n",
        "rankviz/ui/__init__.py": "import streamlit\nimport altair\n",
        "rankviz/charts/__init__.py": "import altair\nfrom rankviz.ui import widgets\n",
        "rankviz/ui/widgets.py": "",
    })
    package = Package.read(root, resolve_lazy=False)
    # A private module is internal to the package: importing it is no borrowed private name.
    assert sorted(private_names(package)) == [
        "private name: rankviz.metrics.graded imports _helper from rankviz.metrics.binary",
        "private name: rankviz.metrics.graded imports _other from rankviz.metrics.binary",
    ]
    assert sorted(layers(package)) == [
        "layer: rankviz.charts imports rankviz.ui.widgets",
        "layer: rankviz.evaluation.x imports streamlit",
        "layer: rankviz.metrics.graded imports rankviz.evaluation.x",
    ]
    assert sorted(identity_keys(package)) == ["identity key: rankviz.evaluation.x calls id()"]
    assert circles(package) == {}
