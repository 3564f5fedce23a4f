"""Every module on its floor: the package's imports, read with ``ast`` (issue 34).

- no import circle among the package's modules (imports made at run time, in functions too;
  ``if TYPE_CHECKING:`` blocks are for the type checker and do not count);
- ``sandbox/`` (the test world) is imported only by itself, the CLI and the training tools;
- no private name (``_x``) of a module imported by another module (``from m import _x``) or
  read through an imported module (``m._x``).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bilingual_spider"

MAY_IMPORT_SANDBOX = {
    "bilingual_spider.cli",
    "bilingual_spider.commands.crawl",  # the command line: a sandbox crawl given no seeds
    "bilingual_spider.detection.training",  # training tools: built from the real sites
    "bilingual_spider.patterns.verifier_training",
}
STILL_IMPORTS_SANDBOX: set[str] = set()
"""A ratchet, empty since issue 34 (the spiders' "no seeds: every sandbox site" default moved to
the ``scrapy crawl`` command): a new importer outside the allowed places fails the test."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if _is_type_checking_block(child):
                stack.extend(child.orelse)  # type: ignore[attr-defined]
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append(child)
            stack.append(child)
    return found


def imports_of(name: str) -> list[tuple[str, str | None]]:
    """(module imported, name imported from it or None) for each run-time import of ``name``."""
    out: list[tuple[str, str | None]] = []
    for node in _runtime_imports(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        out.extend(imported_by(name, node, alias) for alias in node.names)
    return out


def imported_by(
    name: str, node: ast.Import | ast.ImportFrom, alias: ast.alias
) -> tuple[str, str | None]:
    """What one name of an import statement of ``name`` brings: (module, None) or (module,
    name imported from it); relative imports resolved."""
    if isinstance(node, ast.Import):
        return (alias.name, None)
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    base = node.module or ""
    if node.level:
        parents = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parents, base] if base else parents)
    submodule = f"{base}.{alias.name}"
    return (submodule, None) if submodule in MODULES else (base, alias.name)


def project_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for name in MODULES:
        for target, _ in imports_of(name):
            if target in MODULES and target != name:
                graph[name].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(MODULES):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_walker_sees_a_planted_circle_and_ignores_type_checking_imports() -> None:
    planted = {name: set(targets) for name, targets in project_graph().items()}
    planted.setdefault("bilingual_spider.language.codes", set()).add(
        "bilingual_spider.patterns.mining"
    )
    assert any("bilingual_spider.language.codes" in c for c in circles(planted))
    # markers names mining's PairingPattern for the type checker only; mining imports markers
    assert (
        "bilingual_spider.patterns.mining"
        not in project_graph()["bilingual_spider.patterns.markers"]
    )
    assert (
        "bilingual_spider.patterns.markers" in project_graph()["bilingual_spider.patterns.mining"]
    )


def test_no_import_circles() -> None:
    assert circles(project_graph()) == []


def test_only_the_sandbox_cli_and_training_tools_import_the_sandbox() -> None:
    importers = {
        name
        for name, targets in project_graph().items()
        if not name.startswith("bilingual_spider.sandbox")
        and any(t.startswith("bilingual_spider.sandbox") for t in targets)
    }
    assert importers - MAY_IMPORT_SANDBOX == STILL_IMPORTS_SANDBOX


def module_aliases(name: str) -> dict[str, str]:
    """The names under which ``name`` binds a project module (``from pkg import module``,
    ``import pkg.module as alias``)."""
    found = {}
    for node in _runtime_imports(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        for alias in node.names:
            target, imported = imported_by(name, node, alias)
            bound = alias.asname or (alias.name if isinstance(node, ast.ImportFrom) else None)
            if imported is None and target in MODULES and bound:
                found[bound] = target
    return found


def _private(name: str | None) -> bool:
    return name is not None and name.startswith("_") and not name.startswith("__")


def private_names_used_elsewhere(name: str) -> list[str]:
    """The private names of other project modules that ``name`` imports or reads through a
    module it imported."""
    found = [
        f"{name}: {imported} from {target}"
        for target, imported in imports_of(name)
        if _private(imported) and target != name and target.startswith("bilingual_spider")
    ]
    aliases = module_aliases(name)
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and _private(node.attr)
        ):
            found.append(f"{name}: {aliases[node.value.id]}.{node.attr}")
    return found


def test_the_private_name_walker_sees_an_import_and_an_attribute(tmp_path, monkeypatch) -> None:
    source = (PACKAGE / "sandbox" / "published_sites.py").read_text(encoding="utf-8")
    source += "\nfrom bilingual_spider.sandbox.realsites import _prepared_file\n"
    source += "realsites._prepared_file(None, 'x')\n"
    fake = tmp_path / "published_sites.py"
    fake.write_text(source, encoding="utf-8")
    monkeypatch.setitem(MODULES, "bilingual_spider.sandbox.published_sites", fake)
    found = private_names_used_elsewhere("bilingual_spider.sandbox.published_sites")
    assert found == [
        "bilingual_spider.sandbox.published_sites: _prepared_file from "
        "bilingual_spider.sandbox.realsites",
        "bilingual_spider.sandbox.published_sites: bilingual_spider.sandbox.realsites."
        "_prepared_file",
    ]


def test_no_private_name_is_used_outside_its_module() -> None:
    assert [found for name in MODULES for found in private_names_used_elsewhere(name)] == []


RESEARCH_LAYERS = (
    ("language", "html_page"),
    ("links",),
    ("patterns",),
    ("detection",),
    ("frontier",),
    ("focus",),
)
"""The research modules from the floor up: each may import only its own layer and those below.
``html_page`` (one page's decode and parse, from ``language/charsets.py``) is on the floor with
``language/``, so language/ reads pages without importing links/."""


def _layer(name: str) -> int | None:
    part = name.split(".")[1] if name.count(".") else ""
    for level, packages in enumerate(RESEARCH_LAYERS):
        if part in packages:
            return level
    return None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for name, targets in graph.items():
        for target in targets:
            own, other = _layer(name), _layer(target)
            if own is not None and other is not None and other > own:
                found.append(f"{name} -> {target}")
    return found


def test_the_layer_walker_sees_a_planted_upward_import() -> None:
    planted = {name: set(targets) for name, targets in project_graph().items()}
    planted["bilingual_spider.language.page_language"].add("bilingual_spider.links.contexts")
    assert upward_imports(planted) == [
        "bilingual_spider.language.page_language -> bilingual_spider.links.contexts"
    ]


def test_no_research_layer_imports_a_higher_one() -> None:
    assert upward_imports(project_graph()) == []


def test_the_page_parser_is_a_leaf_without_scrapy() -> None:
    """``html_page`` imports only the charset rules of the project, and no Scrapy."""
    name = "bilingual_spider.html_page"
    assert project_graph()[name] <= {"bilingual_spider.language.charsets"}
    assert not any(target.split(".")[0] == "scrapy" for target, _ in imports_of(name))


def test_the_pupsniffer_spider_only_reads_pages_and_wires_its_adapters() -> None:
    """Issue 34: the spider file stays thin (under 350 lines); its research is in ``patterns/``
    and its Scrapy adapters in ``adapters/``."""
    spider = PACKAGE / "spiders" / "pupsniffer.py"
    assert len(spider.read_text(encoding="utf-8").splitlines()) < 350


def test_no_spider_imports_a_store_or_a_scheduler() -> None:
    """Spiders reach the crawl's stores through :mod:`bilingual_spider.state` only (issue 53):
    which frontier and which stores run is the settings' business, not theirs."""
    floors = ("bilingual_spider.distributed", "bilingual_spider.scheduler")
    reaching = {
        f"{name} -> {target}"
        for name in MODULES
        if name.startswith("bilingual_spider.spiders")
        for target, _ in imports_of(name)
        if target.startswith(floors)
    }
    assert reaching == set()
