"""The import layers (docs/architecture.md) cover every module: a new module is placed in a layer,
so `lint-imports` (run by `make test`) checks what it imports. A layer names a package (`league.lib`,
`league.seasons`, `league.views`), which covers every module inside it. No database."""

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("league", "teams", "matches")
LEAGUE_PACKAGES = ("league.lib", "league.notices", "league.seasons", "league.views", "league.rules")


def _contract() -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return next(c for c in config["contracts"] if c["type"] == "layers")


def _layered_modules() -> set[str]:
    names = set()
    for layer in _contract()["layers"]:
        names.update(name.strip() for name in layer.replace("|", ":").split(":"))
    return names


def _modules() -> list[str]:
    found = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts or parts[-1] == "__init__":
                continue
            found.append(".".join(parts))
    return found


def _in_layer(module: str, layered: set[str]) -> bool:
    parts = module.split(".")
    return any(".".join(parts[:n]) in layered for n in range(1, len(parts) + 1))


def test_every_module_of_the_apps_is_in_a_layer():
    layered = _layered_modules()
    assert [m for m in _modules() if not _in_layer(m, layered)] == []


def test_the_layers_run_from_the_pages_down_to_the_pure_rules():
    layers = _contract()["layers"]
    assert layers[-1] == "league.rules"
    assert layers[0].split(":")[0].strip() == "torshov"


def test_the_contract_names_the_league_packages_not_their_modules():
    layered = _layered_modules()
    assert set(LEAGUE_PACKAGES) <= layered
    assert [n for n in layered if n.startswith(tuple(p + "." for p in LEAGUE_PACKAGES))] == []


PAGES = ("views", "urls", "admin")  # an app's own pages, on top with the league's (pyproject)


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_rest_of_an_app_never_imports_its_pages():
    """The contract lets an app's pages import any layer (they are pages); the layer below them, the
    rest of the app, must not import them back."""
    wrong = []
    for app in ("matches", "teams"):
        pages = tuple(f"{app}.{page}" for page in PAGES)
        for module in _modules():
            if module.startswith(f"{app}.") and not module.startswith(pages):
                path = ROOT / (module.replace(".", "/") + ".py")
                wrong += [f"{module} -> {name}" for name in _imported(path) if name.startswith(pages)]
    assert wrong == []


def test_the_contract_names_packages_not_modules():
    """Issue 25: about fifteen entries (18 today), not the sixty modules it once listed one by one."""
    assert len(_layered_modules()) <= 18
