"""Builds eight._eight with the project's CMake (see pyproject.toml).

The extension is the CMake target eight_python (python/CMakeLists.txt): the
core, the C API and the binding compiled once, by the same rules as every
other build of eight. This runs CMake on the repository this folder is in,
builds that target alone (no tables, no tests, no server) and puts the
module where setuptools packs it.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent


def project_version():
    """The version of CMake's project() (the one version there is: eight
    --version, the server's, the Debian package's, eight.__version__)."""
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"^project\(eight VERSION ([0-9][0-9.]*)", text, re.MULTILINE)
    if match is None:
        raise RuntimeError(f"no project(eight VERSION ...) in {ROOT / 'CMakeLists.txt'}")
    return match.group(1)


class CMakeExtension(Extension):
    def __init__(self):
        super().__init__("eight._eight", sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                        "-DEIGHT_BUILD_TESTS=OFF", "-DEIGHT_BUILD_SERVER=OFF",
                        "-DEIGHT_BUILD_BENCHMARKS=OFF", "-DEIGHT_BUILD_PYTHON=ON",
                        f"-DPython_EXECUTABLE={sys.executable}"], check=True)
        jobs = str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(build), "--target", "eight_python", "-j", jobs],
                       check=True)
        built = next((build / "python" / "eight").glob("_eight*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(built, target)


setup(version=project_version(), ext_modules=[CMakeExtension()],
      cmdclass={"build_ext": CMakeBuild})
