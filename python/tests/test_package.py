"""The package itself: type stubs that match the native module, py.typed, no torch."""

import ast
import pathlib
import subprocess
import sys

import ayo
import ayo._ayo as native

PACKAGE = pathlib.Path(ayo.__file__).parent


def stub_names():
    tree = ast.parse((PACKAGE / "_ayo.pyi").read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = None
        elif isinstance(node, ast.AnnAssign):
            names[node.target.id] = None
    return names


def test_stubs_cover_the_native_module():
    stubs = stub_names()
    public = {n for n in dir(native) if not n.startswith("_")}
    assert public <= set(stubs), f"missing from _ayo.pyi: {public - set(stubs)}"
    for cls in (native.Game, native.VecEnv, native.Agent, native.Rating):
        members = {n for n in vars(cls) if not n.startswith("_") or n in ("__len__", "__copy__", "__deepcopy__")}
        members -= {"__module__", "__doc__", "__new__"}
        missing = members - stubs[cls.__name__]
        assert not missing, f"{cls.__name__} members missing from _ayo.pyi: {missing}"


def test_py_typed_is_shipped():
    assert (PACKAGE / "py.typed").exists()


def test_importing_ayo_does_not_import_torch():
    code = "import sys, ayo, ayo.gymnasium, ayo.pettingzoo; ayo.VecEnv('oware', 2).reset(); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
