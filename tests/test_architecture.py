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
  ``rankviz._lazy`` (reading files needs no metrics and no evaluation; evaluation depends on trec, never the reverse);
  ``rankviz.formatting`` (numbers and text written for people) on nothing but itself and ``rankviz._lazy``; only
  ``rankviz.ui`` imports streamlit, only ``rankviz.ui`` and ``rankviz.charts`` import altair;
  nothing outside ``rankviz.ui`` imports ``rankviz.ui``;
* **identity keys**: no module calls the builtin ``id()``: a cache keyed on an object's id
  (or its buffers' addresses) is a hidden channel between functions; pass a value instead.

One vocabulary (issue 21), over ``rankviz/`` but the registry, ``app_pages/`` and ``app.py``:

* **choice vocabulary**: no literal list of a parameter's choice values (``("linear",
  "exponential")``), no table of words keyed by them, no string equal to a choice's label or
  formula text: read ``Param.values``, ``Param.label``, ``Choice.text`` from the registry;
* **metric tables**: no dict keyed by three or more metric names, set of two or more, module
  list of three or more tested with ``in``, or if-chain comparing a name with three or more: a
  fact about every metric is a field of ``MetricSpec``;
* **positional columns**: no ``.columns[<int>]`` or ``.iloc[:, <int>]`` on a table another
  module built: read a column by its name, or a worked table's by its role (``Breakdown.roles``).

Today's violations in code other branches are fixing are listed in :data:`KNOWN_VIOLATIONS`.
"""

from __future__ import annotations

import ast
import importlib
import re
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
    ("rankviz.metrics", ("rankviz._lazy", "rankviz._docstrings", "rankviz.registry", "rankviz.i18n"),
     "per-query metrics and their kernels are the bottom layer"),
    ("rankviz.trec", ("rankviz._lazy", "rankviz.i18n"), "reading qrels and runs needs neither metrics nor evaluation"),
    ("rankviz.formatting", ("rankviz._lazy", "rankviz.i18n"), "writing numbers and text for people is a leaf every layer may use"),
    ("rankviz.i18n", (), "the language in force is a leaf every layer may use"),
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
    # ``_`` alone is gettext's translate function (rankviz.i18n exports it), not a private name.
    return name.startswith("_") and name != "_" and not (name.startswith("__") and name.endswith("__"))


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


# ---------------------------------------------------------------------------------------------
# One vocabulary (issue 21): the registry names every choice, label and metric-keyed fact; worked
# tables are read by role. These rules read the source of rankviz/ (the registry excepted) and of
# the app's pages, and report "path:line" for each finding.


@dataclass(frozen=True)
class Source:
    """One file to check: its path as reported and its parsed tree."""

    path: str
    tree: ast.Module

    @classmethod
    def read(cls, path: Path, root: Path) -> Source:
        return cls(path.relative_to(root).as_posix(), ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))


def vocabulary_sources(root: Path = ROOT) -> list[Source]:
    """Every module that must take its words from the registry: rankviz/ but the registry, the pages, app.py."""
    paths = [p for p in sorted((root / "rankviz").rglob("*.py")) if p != root / "rankviz" / "registry.py"]
    paths += sorted((root / "app_pages").glob("*.py")) + [root / "app.py"]
    return [Source.read(p, root) for p in paths if p.exists()]


@cache
def _vocabulary():
    """(choice parameters, labels and texts, metric names) of the registry."""
    from rankviz.registry import METRICS

    params = {}
    for spec in METRICS:
        for p in spec.params:
            if len(p.choices) >= 2 and all(isinstance(v, str) for v in p.values):
                params.setdefault(p.values, p)
    words = {}
    for p in params.values():
        for choice in p.choices:
            words[choice.label] = f"{p.name}={choice.value!r}"
            # A formula's text ("2^g − 1"), not a plain word ("clicks", "g"): other vocabularies may use those.
            if not choice.text.isalpha() and len(choice.text) >= 3:
                words[choice.text] = f"{p.name}={choice.value!r}"
    names = {spec.name for spec in METRICS} | {spec.measure for spec in METRICS if spec.measure}
    return tuple(params.values()), words, frozenset(names)


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring nodes: documentation may name a choice in prose."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _strings(nodes) -> list | None:
    """The str constants of ``nodes``, or None if any node is something else."""
    values = [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return values if len(values) == len(nodes) else None


def choice_vocabulary(sources: list[Source]) -> dict[str, str]:
    """A choice list (a literal of a parameter's values), a table of words keyed by a parameter's
    values, or a choice's label or formula text, spelled outside the registry."""
    params, words, _ = _vocabulary()
    found = {}

    def report(source, node, what):
        key = f"choice vocabulary: {source.path} {what}"
        found.setdefault(key, f"{key} ({source.path}:{node.lineno}): read it from rankviz.registry "
                              "(Param.values, Param.label, Choice.text)")

    for source in sources:
        docstrings = _docstrings(source.tree)
        for node in ast.walk(source.tree):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and len(node.elts) >= 2:
                values = _strings(node.elts)
                for p in params:
                    if values and set(values) <= set(p.accepted) and len({p.canonical(v) for v in values}) >= 2:
                        report(source, node, f"spells the choices of {p.name!r}: {tuple(values)!r}")
            elif isinstance(node, ast.Dict) and len(node.keys) >= 2 and None not in node.keys:
                keys = _strings(node.keys)
                texts = all(isinstance(v, ast.JoinedStr) or isinstance(v, ast.Constant) and isinstance(v.value, str)
                            for v in node.values)
                for p in params:
                    if keys and texts and set(keys) <= set(p.values):
                        report(source, node, f"words keyed by the choices of {p.name!r}: {tuple(keys)!r}")
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in words
                  and id(node) not in docstrings):
                report(source, node, f"spells the label of {words[node.value]}: {node.value!r}")
    return found


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _functions(tree: ast.Module):
    """The module and each function in it: the scopes whose own nodes :func:`_own_nodes` gives."""
    yield tree
    yield from (n for n in ast.walk(tree) if isinstance(n, _SCOPES))


def _own_nodes(scope: ast.AST):
    """The nodes of a scope, not those of the functions defined inside it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            stack.extend(ast.iter_child_nodes(node))


def metric_tables(sources: list[Source]) -> dict[str, str]:
    """A table keyed by metric names outside the registry: a dict with three or more of them as keys
    (two are a row of values, P and R), a set of two or more, a module's list of three or more
    that the module tests names against (``name in SWEEP_METRICS``: a list of the metrics that can
    do something is a flag of their specs), or a chain of comparisons with three or more metric
    names in one function (an if-chain from a name to its kernel, chart or words)."""
    _, _, names = _vocabulary()
    found = {}

    def report(source, node, what):
        key = f"metric table: {source.path} {what}"
        found.setdefault(key, f"{key} ({source.path}:{node.lineno}): make it a field of MetricSpec")

    for source in sources:
        for node in ast.walk(source.tree):
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant) and k.value in names]
                if len(keys) >= 3:
                    report(source, node, f"keys a dict by metric names: {sorted(keys)[:4]}")
            elif isinstance(node, ast.Set) or (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                                               and node.func.id in ("set", "frozenset") and node.args
                                               and isinstance(node.args[0], (ast.Set, ast.Tuple, ast.List))):
                elements = node.elts if isinstance(node, ast.Set) else node.args[0].elts
                members = [e.value for e in elements if isinstance(e, ast.Constant) and e.value in names]
                if len(members) >= 2:
                    report(source, node, f"keeps a set of metric names: {sorted(members)[:4]}")
        lists = {}  # module-level name -> its literal of three or more metric names
        for node in source.tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Tuple, ast.List)):
                members = [e.value for e in node.value.elts if isinstance(e, ast.Constant) and e.value in names]
                if len(members) >= 3:
                    lists.update({t.id: (node, members) for t in node.targets if isinstance(t, ast.Name)})
        for node in ast.walk(source.tree):
            if isinstance(node, ast.Compare):
                for op, right in zip(node.ops, node.comparators):
                    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, ast.Name) and right.id in lists:
                        assigned, members = lists[right.id]
                        report(source, assigned, f"tests names against its list {right.id}: {sorted(members)[:4]}")
        for scope in _functions(source.tree):
            compared = {}
            for node in _own_nodes(scope):
                if not isinstance(node, ast.Compare):
                    continue
                for op, right in zip(node.ops, node.comparators):
                    if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(right, ast.Constant) and right.value in names:
                        compared.setdefault(right.value, node)
                    elif isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
                        for e in right.elts:
                            if isinstance(e, ast.Constant) and e.value in names:
                                compared.setdefault(e.value, node)
            if len(compared) >= 3:
                first = min(compared.values(), key=lambda n: n.lineno)
                where = getattr(scope, "name", "<module>")
                report(source, first, f"{where} compares a name with metric names: {sorted(compared)[:4]}")
    return found


def _root(node: ast.AST):
    """The name an expression starts from: ``worked.table.copy().columns`` -> ``worked``."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _positional(index: ast.AST) -> bool:
    """An int constant, or a slice whose bounds are int constants (or left out)."""
    if isinstance(index, ast.Constant):
        return isinstance(index.value, int) and not isinstance(index.value, bool)
    if isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub):
        return _positional(index.operand)
    if isinstance(index, ast.Slice):
        bounds = [b for b in (index.lower, index.upper) if b is not None]
        return bool(bounds) and all(_positional(b) for b in bounds)
    return False


def _own_tables(scope: ast.AST, module_functions: set[str]) -> set[str]:
    """Names a scope binds to a table it builds itself: ``pd.DataFrame(...)`` or a call to a
    function of the same module (unpacked or not)."""
    own = set()
    for node in _own_nodes(scope):
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        func = node.value.func
        builds = (isinstance(func, ast.Attribute) and func.attr == "DataFrame"
                  or isinstance(func, ast.Name) and (func.id == "DataFrame" or func.id in module_functions))
        if builds:
            for target in node.targets:
                elements = target.elts if isinstance(target, ast.Tuple) else [target]
                own |= {e.id for e in elements if isinstance(e, ast.Name)}
    return own


def positional_columns(sources: list[Source]) -> dict[str, str]:
    """``.columns[<int>]`` or ``.iloc[:, <int>]`` on a table another module built (a parameter, an
    attribute of one, an imported table): columns are read by name or role, never by position."""
    found = {}
    for source in sources:
        module_functions = {n.name for n in source.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for scope in _functions(source.tree):
            own = _own_tables(scope, module_functions) | _own_tables(source.tree, module_functions)
            for node in _own_nodes(scope):
                if not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Attribute):
                    continue
                attribute, index = node.value.attr, node.slice
                positional = (attribute == "columns" and _positional(index)
                              or attribute == "iloc" and isinstance(index, ast.Tuple) and len(index.elts) == 2
                              and _positional(index.elts[1]))
                root = _root(node.value.value)
                if positional and root not in own:
                    key = f"positional column: {source.path} {ast.unparse(node)}"
                    found.setdefault(key, f"{key} ({source.path}:{node.lineno}): read the column by its name or "
                                          "its role (Breakdown.roles, Breakdown.column)")
    return found


VOCABULARY_RULES = {"choice_vocabulary": choice_vocabulary, "metric_tables": metric_tables,
                    "positional_columns": positional_columns}


@pytest.mark.parametrize("rule", sorted(VOCABULARY_RULES))
def test_the_tree_keeps_one_vocabulary(rule):
    found = VOCABULARY_RULES[rule](vocabulary_sources())
    new = sorted(message for key, message in found.items() if key not in KNOWN_VIOLATIONS)
    assert not new, "\n".join(new)


def _planted(tmp_path: Path, text: str) -> list[Source]:
    path = tmp_path / "app_pages" / "planted.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return [Source.read(path, tmp_path)]


def test_the_choice_rule_finds_a_list_a_label_table_and_a_label(tmp_path):
    sources = _planted(tmp_path, '''
        """A page that spells "exponential gain 2^g − 1" in its docstring: documentation, not flagged."""
        from rankviz.registry import GAIN

        GAINS = ("exponential", "linear")                       # the registry's choices, reordered
        CAPTIONS = {"linear": "g", "exponential": "2^g − 1"}    # their words, keyed by value
        MEASURE_GAINS = ["exp", "linear"]                       # an alias counts as its value
        RIGHT_ENDS = {"ceil": 0.0, "lround": 0.5}               # numbers keyed by choices: math, not words
        ONE = ("linear",)                                       # one value is no list of choices
        DOCS = ("a", "b", "c")                                  # not all of them choices of one parameter
        fine = GAIN.values, GAIN.label("linear")

        def title(gain):
            return "exponential gain 2^g − 1" if gain == "exponential" else "the grade"
    ''')
    found = choice_vocabulary(sources)
    lines = sorted(int(re.search(r"planted\.py:(\d+)\)", message).group(1)) for message in found.values())
    assert lines == [5, 6, 6, 7, 14]  # line 6 twice: the dict of words, and its "2^g − 1"
    assert any("spells the choices of 'gain'" in key for key in found)
    assert any("words keyed by the choices of 'gain'" in key for key in found)
    assert any("spells the label of gain='exponential': '2^g − 1'" in key for key in found)
    assert any("spells the label of gain='exponential': 'exponential gain 2^g − 1'" in key for key in found)


def test_the_metric_table_rule_finds_a_dict_a_set_and_an_if_chain(tmp_path):
    sources = _planted(tmp_path, '''
        CHARTS = {"precision": 1, "recall": 2, "ndcg": 3}       # a table keyed by metric names
        EXACT = frozenset({"P", "AP"})                          # a set of measure names
        SWEEP = ("precision", "recall", "hit")                  # a list names are tested against
        DEFAULTS = ("precision", "recall", "hit")               # a list of defaults: a choice, no table
        PRINTED = {"dcg": 13.8, "ndcg": 0.949}                  # two values: a row, not a table

        def kernel(name):
            if name == "precision":
                return 1
            if name == "recall":
                return 2
            if name in ("ndcg", "dcg"):
                return 3

        def one(name):
            return name == "ndcg" or name in SWEEP
    ''')
    found = metric_tables(sources)
    assert sorted(found) == [
        "metric table: app_pages/planted.py keeps a set of metric names: ['AP', 'P']",
        "metric table: app_pages/planted.py kernel compares a name with metric names: "
        "['dcg', 'ndcg', 'precision', 'recall']",
        "metric table: app_pages/planted.py keys a dict by metric names: ['ndcg', 'precision', 'recall']",
        "metric table: app_pages/planted.py tests names against its list SWEEP: ['hit', 'precision', 'recall']",
    ]


def test_the_positional_rule_finds_another_modules_table_by_position(tmp_path):
    sources = _planted(tmp_path, '''
        import pandas as pd
        from rankviz.teaching.multi_query import DEFAULT_RUNS

        def terms(worked, table):
            discount = table.columns[3]                  # a parameter's table by position
            last = worked.table.iloc[:, -1]              # an attribute of a parameter
            runs = DEFAULT_RUNS.columns[1:]              # an imported table
            for i in range(3):
                table.iloc[:, i]                         # every column in turn: no position assumed
            return table.columns[discount]

        def _frame():
            return pd.DataFrame({"a": [1], "b": [2]})

        def own():
            table = pd.DataFrame({"a": [1]})
            first = table.columns[0]                     # this function's own table
            other = _frame()
            return first, other.columns[1:]             # this module's table
    ''')
    found = positional_columns(sources)
    assert sorted(key.split(": ", 1)[1] for key in found) == [
        "app_pages/planted.py DEFAULT_RUNS.columns[1:]",
        "app_pages/planted.py table.columns[3]",
        "app_pages/planted.py worked.table.iloc[:, -1]",
    ]
