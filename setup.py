"""Build steps that pyproject.toml cannot declare (the metadata lives there).

1. The wheel ships the workflow. ``brainpipe.score``, ``brainpipe score`` and ``brainpipe check`` run the Snakefile
   with its rules, scripts, schemas, report texts, envs, the default config and the profiles; they sit beside src/
   in the repository, outside the package, so build_py copies them into the package as brainpipe/_workflow/ (same
   layout as the repository's root; src/brainpipe/pipeline/workflow_files.py finds them). An editable install gets no copy:
   it runs the checkout's own files.
2. Nothing is left in the checkout: setuptools builds under ./build and writes src/brainpipe.egg-info by default;
   here both go to a temporary folder, removed when the build process ends (an sdist still writes its egg-info
   where setuptools expects it).
"""

import atexit
import shutil
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build import build
from setuptools.command.build_py import build_py
from setuptools.command.egg_info import egg_info

HERE = Path(__file__).resolve().parent
#: the workflow's files, relative to the repository's root (folders copied whole, less Python's caches)
WORKFLOW = ("Snakefile", "workflow", "config", "profiles")
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".snakemake")
_SCRATCH = []


def scratch() -> str:
    """One temporary folder per build process, removed when it exits."""
    if not _SCRATCH:
        _SCRATCH.append(tempfile.mkdtemp(prefix="brainpipe-build-"))
        atexit.register(shutil.rmtree, _SCRATCH[0], True)
    return _SCRATCH[0]


class Build(build):
    def initialize_options(self):
        super().initialize_options()
        self.build_base = str(Path(scratch(), "build"))


class EggInfo(egg_info):
    def finalize_options(self):
        if self.egg_base is None and "sdist" not in self.distribution.commands:
            self.egg_base = scratch()
        super().finalize_options()


class BuildPy(build_py):
    def run(self):
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib, "brainpipe", "_workflow")
        shutil.rmtree(target, ignore_errors=True)
        for name in WORKFLOW:
            source = HERE / name
            if source.is_dir():
                shutil.copytree(source, target / name, ignore=IGNORE)
            elif source.is_file():
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)
            else:
                raise FileNotFoundError(f"{source}: the workflow's {name} is missing; the wheel would not run")


setup(cmdclass={"build": Build, "egg_info": EggInfo, "build_py": BuildPy})
