"""Checks of a brainpipe config beyond its JSON schema: names that must exist (models, benchmarks, layers).

Lives in the library (not in the Snakefile) so it can be tested alone and reused by the ``brainpipe`` command.
"""

import difflib
import functools
from pathlib import Path

from brainpipe import benchmarks as bench
from brainpipe.models import model_sources
from . import parse_cache
from .name_case import case_twin, folded
from brainpipe.models.model_sources import PIXELS
from brainpipe.models.preprocessing import ImagePreprocessing


#: src/brainpipe: the library this process imported (the workflow makes its jobs import the same one).
LIBRARY_ROOT = Path(__file__).resolve().parents[1]


class ConfigError(ValueError):
    """A config value that names something unknown; the message names the config key."""


def _source_key(architecture, base_dir, name=None):
    """Cache key of a source's layer names: a user's model file is part of it, so an edited file is re-read."""
    base = str(Path(base_dir).resolve())
    if model_sources.source_kind(architecture) != "code":
        return architecture, base, None
    try:
        return architecture, base, model_sources.file_digest(model_sources.source_file(architecture, base_dir, name),
                                                             "sha1")
    except model_sources.ModelSourceError as error:
        raise ConfigError(f"config {error}" if name else str(error)) from None


#: the attribute by which a code source's callable that downloads its weights (cornet_s.pretrained) names the
#: callable that builds the same network without them: config checks and dry runs read the layer names from that
#: one, so `snakemake -n` never touches the network
NETWORK_WITHOUT_WEIGHTS = "network_without_weights"


def _on_meta_device(build):
    import torch

    with torch.device("meta"):
        return build()


@functools.lru_cache(maxsize=None)
def _source_layers(architecture, base_dir, _digest, name):
    """(named modules, sweep-able leaves, is a BrainModel) of a source, from its untrained build on the meta device
    (no weights read, no memory); a BrainModel's layers are the regions it records (a class is not instantiated)."""
    if architecture == PIXELS:
        return (PIXELS,), (PIXELS,), False
    # A library architecture's layers depend only on it and the installed packages (parse_cache keys them so):
    # a hit saves importing torch and torchvision. Your own code is not cached: it may import files of yours.
    cacheable = model_sources.source_kind(architecture) in ("torchvision", "timm")
    cached = parse_cache.get("source_layers", architecture) if cacheable else None
    if cached is not None:
        return tuple(cached[0]), tuple(cached[1]), bool(cached[2])
    try:
        if model_sources.source_kind(architecture) == "code":
            found = model_sources.load_callable(architecture, base_dir, name)
            if isinstance(found, type) and model_sources.is_brain_model(found):
                regions = model_sources.brain_model_regions(found)
                return regions, regions, True
            without_weights = getattr(found, NETWORK_WITHOUT_WEIGHTS, None)
            built = (_on_meta_device(without_weights) if without_weights is not None else
                     model_sources.call_code(architecture, base_dir, name, meta=True))
            if model_sources.is_brain_model(built):  # a factory returning a BrainModel
                regions = model_sources.brain_model_regions(built)
                return regions, regions, True
            network = built.eval()
        else:
            network = model_sources.meta_or_cpu_network({"architecture": architecture}, name, base_dir)
    except model_sources.ModelSourceError as error:
        raise ConfigError(f"config {error}" if name else str(error).replace("model.architecture: ", "", 1)) from None
    found = tuple(model_sources.network_layers(network)), tuple(model_sources.network_leaf_layers(network)), False
    if cacheable:
        parse_cache.put("source_layers", [list(found[0]), list(found[1]), False], architecture)
    return found


def architecture_layers(architecture, base_dir=".", name=None):
    """Named modules of an architecture (any source; built untrained on the meta device: no download, no memory)."""
    return _source_layers(*_source_key(architecture, base_dir, name), name)[0]


def leaf_layers(architecture, base_dir=".", name=None):
    """Layers used by ``sweep: all``: every leaf module except dropout, in forward order."""
    return _source_layers(*_source_key(architecture, base_dir, name), name)[1]


def source_layers(architecture, base_dir=".", name=None):
    """(named modules, sweep-able leaves, whether it is a BrainModel) of an architecture, as config checks read them:
    also what a behavioural task's layer is chosen from (:func:`brainpipe.pipeline.model_layers.behaviour_layer`)."""
    return _source_layers(*_source_key(architecture, base_dir, name), name)


def _nearest(value, known):
    """'did you mean ...? ' for the closest known name (difflib, ignoring case), or ''."""
    by_lower = {str(name).lower(): name for name in known}
    close = difflib.get_close_matches(str(value).lower(), list(by_lower), n=1, cutoff=0.5)
    return f"did you mean {by_lower[close[0]]!r}? " if close else ""


def _check_weights(name, spec, base_dir):
    """Named weights exist (at parse time, not when the job starts); a local weights_file is a state dict that
    matches the architecture (read memory-mapped, compared with the meta-device build)."""
    where = f"config model_zoo.{name}"
    architecture, weights, weights_file = spec["architecture"], spec.get("weights"), spec.get("weights_file")
    kind = model_sources.source_kind(architecture)
    if kind == "pixels":
        extra = [key for key in ("weights", "weights_file", "state_dict_key", "preprocessing") if spec.get(key)]
        if extra:
            raise ConfigError(f"{where}.{extra[0]}: pixels is Brain-Score's fixed 256×256 RGB baseline and takes no "
                              f"{extra[0]}; remove it")
        return
    if weights is not None and weights_file:
        raise ConfigError(f"{where}: give weights (named pretrained weights) or weights_file (a local state dict), "
                          "not both")
    if spec.get("state_dict_key") and not weights_file:
        raise ConfigError(f"{where}.state_dict_key: only used with weights_file; add weights_file or remove it")
    try:
        if spec.get("preprocessing") is not None:
            ImagePreprocessing.from_config(spec["preprocessing"], f"{where}.preprocessing")
        if kind == "torchvision" and weights is not None:
            model_sources.torchvision_weights(architecture, weights, name)
        elif kind == "timm" and weights is not None:
            model_sources.check_timm_weights(architecture, weights, name)
        elif kind == "code" and weights is not None:
            raise ConfigError(f"{where}.weights: your own code loads no named weights; use weights_file (a state "
                              "dict) or null")
        if weights_file:
            network = model_sources.meta_or_cpu_network(spec, name, base_dir)
            path = model_sources.weights_path(spec, base_dir)
            state_dict = model_sources.read_state_dict(path, spec.get("state_dict_key"), name, mmap=True)
            model_sources.check_state_dict(network, state_dict, path, name)
    except ValueError as error:  # ModelSourceError, preprocessing errors: their message names the key
        message = str(error)
        raise ConfigError(message if message.startswith("config ") else f"config {message}") from None


def _check_weights_cached(name, spec, base_dir):
    """``_check_weights``, skipped where it passed before for the same entry of a library architecture (named
    weights; a weights_file by its path, size and modification time): it imports torchvision, or reads the file."""
    if model_sources.source_kind(spec["architecture"]) not in ("torchvision", "timm"):
        return _check_weights(name, spec, base_dir)
    entry = {key: value for key, value in spec.items() if key in ("architecture", "weights", "weights_file",
                                                                  "state_dict_key", "preprocessing")}
    if spec.get("weights_file"):
        path = model_sources.weights_path(spec, base_dir).resolve()
        try:
            stat = path.stat()
        except OSError:  # missing or unreadable: _check_weights says so
            return _check_weights(name, spec, base_dir)
        entry["weights_file_stat"] = [str(path), stat.st_size, stat.st_mtime_ns]
    if parse_cache.get("weights_ok", entry):
        return None
    _check_weights(name, spec, base_dir)
    parse_cache.put("weights_ok", True, entry)


def _check_inprocess(name, spec):
    """An entry brainpipe.score wrote for a model in a Python session: the workflow cannot build it, so its layer
    names were checked in Python before its activations were written; here only the entry's form."""
    where = f"config model_zoo.{name}"
    fingerprint = spec["architecture"][len(model_sources.INPROCESS_PREFIX):]
    if not fingerprint or not all(c in "0123456789abcdef" for c in fingerprint):
        raise ConfigError(f"{where}.architecture: {spec['architecture']!r} should be 'inprocess:<hex fingerprint>', "
                          "as brainpipe.score writes it; give your model to brainpipe.score from Python instead")
    extra = [k for k in ("weights", "weights_file", "state_dict_key") if spec.get(k) is not None]
    if extra:
        raise ConfigError(f"{where}.{extra[0]}: an in-process model brings its own weights; remove this key")
    if any(layers == "all" for layers in (spec.get("sweep") or {}).values()):
        raise ConfigError(f"{where}.sweep: 'all' needs the network's layer names, which only the Python session "
                          "has; list the layers")


def check_model(name, spec, base_dir="."):
    """Everything about one model_zoo entry that can be checked without running it: the source imports and builds,
    named weights exist, a weights file fits, preprocessing is valid, and every named layer exists (with the
    nearest name suggested). Raises ConfigError naming ``model_zoo.<name>``."""
    architecture = spec["architecture"]
    if model_sources.source_kind(architecture) == "inprocess":
        return _check_inprocess(name, spec)
    known, _, brain_model = _source_layers(*_source_key(architecture, base_dir, name), name)
    if brain_model:
        extra = [k for k in ("weights", "weights_file", "state_dict_key", "preprocessing") if spec.get(k) is not None]
        if extra:
            raise ConfigError(f"config model_zoo.{name}.{extra[0]}: a BrainModel loads its own weights and reads its "
                              "own images; remove this key")
    else:
        _check_weights_cached(name, spec, base_dir)
    what = "BrainModel regions" if brain_model else "layers"
    for region, layer in spec["layers"].items():
        if layer not in known:
            raise ConfigError(f"config model_zoo.{name}.layers.{region}: {architecture} has no layer {layer!r}; "
                              f"{_nearest(layer, known)}e.g. {list(known)[:10]} ({len(known)} {what})")
    for key in ("behavioral_readout_layer", "logits_layer"):
        if spec.get(key) is not None and spec[key] not in known:
            raise ConfigError(f"config model_zoo.{name}.{key}: {architecture} has no layer {spec[key]!r}; "
                              f"{_nearest(spec[key], known)}({len(known)} {what})")
    for region, layers in (spec.get("sweep") or {}).items():
        for layer in ([] if layers == "all" else layers):
            if layer not in known:
                raise ConfigError(f"config model_zoo.{name}.sweep.{region}: no layer {layer!r} in {architecture}; "
                                  f"{_nearest(layer, known)}({len(known)} {what})")


def check_config(config, base_dir="."):
    """Raise ConfigError naming the first key whose value names something unknown (paths in model entries are
    relative to ``base_dir``, the working directory)."""
    zoo = config["model_zoo"]
    try:
        registry = bench.from_config(config)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    for index, name in enumerate(config["models"]):
        if name not in zoo:
            raise ConfigError(f"config models[{index}]: unknown model {name!r}; model_zoo has {sorted(zoo)}")
    for index, identifier in enumerate(config["benchmarks"]):
        try:
            registry.benchmark(identifier)
        except ValueError as error:
            raise ConfigError(f"config benchmarks[{index}]: {error}") from None
    for identifier, settings in (config.get("benchmark_settings") or {}).items():
        try:
            registry.benchmark(identifier, settings)
        except ValueError as error:
            raise ConfigError(f"config benchmark_settings.{identifier}: {error}") from None
    for name in config["models"]:
        check_model(name, zoo[name], base_dir)


def load_registry(config, base_dir="."):
    """The benchmark registry of a config (built-ins, benchmark_zoo, benchmark_plugins); ConfigError naming the
    key or plugin file when a declaration is malformed."""
    try:
        return bench.from_config(config, base_dir)
    except ValueError as error:
        raise ConfigError(str(error)) from None


def check_committed_regions(config, registry):
    """Some model of the grid commits a layer to the region of every neural benchmark of the grid, unless the
    region is one of V1, V2, V4, IT; ConfigError naming the model, the region and the benchmark otherwise. Checked
    when the workflow starts: such a region (often a typo in a declared entry's or a model's region) would
    otherwise leave a score no job can make. A model that commits no layer to a region others commit (or to a
    standard one) gets empty cells there (pipeline/grid_cells.py): a temporal model committing only IT can sit in a
    grid with V1 benchmarks."""
    models = config.get("models") or []
    zoo = config.get("model_zoo") or {}
    commits = {region for model in models for region in ((zoo.get(model) or {}).get("layers") or {})}
    for identifier in config.get("benchmarks") or []:
        try:
            benchmark = registry.benchmark(identifier)
        except ValueError:
            continue  # reported with its own message where the benchmark is built
        if benchmark.region is None:
            continue  # behaviour: the task's layer is checked by behaviour_layer
        if benchmark.model_region in commits or benchmark.model_region in model_sources.BRAIN_REGIONS:
            continue  # the models without it get empty cells
        for model in models:
            committed = (zoo.get(model) or {}).get("layers") or {}
            if benchmark.model_region not in committed:
                hint = _nearest(benchmark.model_region, committed).strip()
                raise ConfigError(
                    f"config model_zoo.{model}.layers: no layer for region {benchmark.model_region!r}, which benchmark "
                    f"{identifier} records{f' ({hint})' if hint else ''}; {model} commits "
                    f"{sorted(committed) or 'no region'}. Commit a layer (`brainpipe commit-layers {model} --region "
                    f"{benchmark.model_region} --benchmark {identifier}`), fix the region's name, or take {identifier} out "
                    "of benchmarks")


# ---- The config's structure, checked before its values: unknown keys, empty grids, reserved model names, YAML
# syntax. Each message names the key (and the nearest valid one) instead of dumping the JSON schema.

#: Folders and files under results/ that sit beside the model folders (results/<model>/...): a model with one of
#: these names would write into them. Keep in step with the ``model`` wildcard constraint in
#: workflow/rules/common.smk (tests/test_workflow_config.py compares the two).
RESULT_FOLDERS = ("ceilings", "activations", "assemblies", "stimuli_on_screen", "benchmarks", "plots", "gram",
                  "behaviour", "properties")
RESULT_FILES = ("summary.tsv", "leaderboard.csv", "leaderboard.html")


def _unknown_key(where, key, valid, what="key"):
    """ConfigError for an unknown key: the key, the closest valid one (difflib), and the valid ones."""
    import difflib

    valid = sorted(map(str, valid))
    close = difflib.get_close_matches(str(key), valid, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else "."
    shown = ", ".join(valid[:15]) + (f", … ({len(valid)} in all)" if len(valid) > 15 else "")
    return ConfigError(f"config {where}: unknown {what} {key!r}{hint} Valid: {shown or 'none'}")


def _check_schema_keys(value, schema, where):
    """Every mapping whose schema closes it (``additionalProperties: false``) has only the schema's keys."""
    if not isinstance(value, dict) or not isinstance(schema, dict):
        return
    properties, extra = schema.get("properties", {}), schema.get("additionalProperties", True)
    for key, item in value.items():
        path = f"{where}.{key}" if where else str(key)
        if key in properties:
            _check_schema_keys(item, properties[key], path)
        elif extra is False:
            raise _unknown_key(path, key, properties)
        else:
            _check_schema_keys(item, extra, path)


def _check_named_keys(config):
    """Mappings keyed by names the library knows: regions, catalog file names, benchmark families."""
    from brainpipe.data.catalog import load_catalog

    registry = load_registry(config)  # built-in, declared and plugin families, and the data they declare
    families = registry.families
    _check_benchmark_name_case(families)
    regions = {region for family in families.values() for region in family.regions}
    for name, spec in (config.get("model_zoo") or {}).items():
        for section in ("layers", "sweep"):
            for region in (spec or {}).get(section) or {}:
                if region not in regions:
                    raise _unknown_key(f"model_zoo.{name}.{section}.{region}", region, regions, "region")
    simulated = families["SyntheticShapes"].regions
    for section in ("neuroids", "noise"):
        for region in (config.get("synthetic_shapes") or {}).get(section) or {}:
            if region not in simulated:
                raise _unknown_key(f"synthetic_shapes.{section}.{region}", region, simulated,
                                   "region (SyntheticShapes simulates these only)")
    data = config.get("data") or {}
    files = load_catalog(registry=registry).files()
    for name in data.get("local_files") or {}:
        if name not in files:
            raise ConfigError(str(_unknown_key(f"data.local_files.{name}", name, files, "file name")) +
                              ". Keys are the catalog's file names (`brainpipe data` lists them); a key that "
                              "matches none would be ignored and the file downloaded instead.")
    for key in ("access", "splits"):  # data.splits: data.access's name before brainpipe 0.3, still read
        for family, access in (data.get(key) or {}).items():
            if family not in families:
                raise _unknown_key(f"data.{key}.{family}", family, families, "benchmark family")
            if access == "private" and families[family].private is None:
                raise ConfigError(f"config data.{key}.{family}: {family} has no private recordings; remove the "
                                  f"entry (families with them: "
                                  f"{', '.join(sorted(f for f, v in families.items() if v.private))})")
            try:
                bench.base.configured_access(config, family)
            except ValueError as error:
                raise ConfigError(str(error)) from None


def _check_benchmark_name_case(families):
    """No two benchmark families, and no two benchmark identifiers, that differ only in letter case: their score
    and data files would be the same files on a case-insensitive file system (name_case.py)."""
    from brainpipe.benchmarks.registry import family_identifiers

    twin = case_twin(families)
    if twin is not None:
        first, second = families[twin[0]], families[twin[1]]
        raise ConfigError(f"{second.origin}: benchmark family {second.name!r} differs from {first.name!r} (defined by "
                          f"{first.origin}) only in letter case; on a case-insensitive file system (macOS's and "
                          f"Windows' default) results/<model>/{second.name}… are {first.name}'s files, and the two "
                          "families' scores would overwrite each other. Rename "
                          + (repr(second.name) if first.origin.startswith("built-in") else "one of them"))
    owner = {identifier: family for family in families.values() for identifier in family_identifiers(family)}
    twin = case_twin(owner)
    if twin is not None:
        first, second = twin
        raise ConfigError(f"{owner[second].origin}: benchmark {second!r} differs from {first!r} (of "
                          f"{owner[first].origin}) only in letter case; on a case-insensitive file system their score "
                          f"files results/<model>/{second}.json and results/<model>/{first}.json are one file. "
                          "Rename one of the two regions")  # families differing only in case are refused above


def _check_grid_and_names(config):
    """A non-empty grid, and model names that cannot collide with the result folders."""
    zoo = config.get("model_zoo") or {}
    if config.get("models") == []:
        raise ConfigError("config models is empty: list at least one model of model_zoo "
                          f"({', '.join(sorted(zoo)) or 'model_zoo is empty too'}) under `models:`")
    if config.get("benchmarks") == []:
        raise ConfigError("config benchmarks is empty: list at least one benchmark identifier under `benchmarks:` "
                          "(e.g. SyntheticShapes.IT-pls; `brainpipe list` prints every valid one)")
    named = [(f"model_zoo.{name}", name) for name in zoo]
    named += [(f"models[{index}]", name) for index, name in enumerate(config.get("models") or [])]
    for where, name in named:
        if not isinstance(name, str):
            continue
        reserved = next((r for r in RESULT_FOLDERS + RESULT_FILES if folded(r) == folded(name)), None)
        if reserved is not None:  # results/Plots is results/plots on a case-insensitive file system (name_case.py)
            raise ConfigError(f"config {where}: a model cannot be called {name!r}: results/{reserved} holds "
                              f"{'the grid' if reserved in RESULT_FILES else 'workflow results'}, not a model's scores"
                              f"{'' if reserved == name else ' (the same name on a case-insensitive file system)'}. "
                              f"Rename the model (reserved: {', '.join(RESULT_FOLDERS + RESULT_FILES)})")
        if "/" in name or name.startswith(".") or not name.strip():
            raise ConfigError(f"config {where}: model name {name!r} must be a plain folder name (no '/', not "
                              "starting with '.'); it becomes results/<model>/")
    twin = case_twin(zoo)
    if twin is not None:
        first, second = twin
        raise ConfigError(f"config model_zoo.{second}: model {second!r} differs from model {first!r} "
                          f"(model_zoo.{first}) only in letter case; on a case-insensitive file system (macOS's and "
                          f"Windows' default) results/{second}/ and results/{first}/ are one folder, and the two "
                          "models' scores would overwrite each other. Rename one of them")


def _check_schema_values(config, schema):
    """The JSON schema's other rules (types, ranges), reported as one line naming the key."""
    import jsonschema

    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(config))
    if error is not None:
        where = ".".join(str(part) for part in error.absolute_path) or "(top level)"
        hint = ""
        if error.validator == "required" and not error.absolute_path:
            hint = (". The workflow reads config/config.yaml of its working directory; with --directory elsewhere, "
                    "name it too: --configfile <repo>/config/config.yaml <yours>.yaml")
        elif (error.validator == "type" and "boolean" in str(error.validator_value) and isinstance(error.instance, str)
              and error.instance.lower() in ("true", "false", "yes", "no", "on", "off")):
            # Snakemake's --config reads only True and False as booleans (snakemake/cli.py, parse_config): `false`
            # arrives as the string 'false'
            value = "True" if error.instance.lower() in ("true", "yes", "on") else "False"
            hint = (f". In a YAML file write {value.lower()} without quotes; on the command line --config "
                    f"{where}={value}: Snakemake's --config reads only True and False (capitalised) as booleans")
        raise ConfigError(f"config {where}: {error.message}{hint}")


def check_config_structure(config, schema_path):
    """Structure checks to run before the JSON schema validation (whose errors print the whole schema):
    unknown keys in any section with the nearest valid key, catalog file names under data.local_files, regions,
    families, an empty `models` or `benchmarks`, model names that would collide with result folders, and the
    schema's type/range rules as one-line messages. Raises ConfigError."""
    import yaml

    schema = yaml.safe_load(Path(schema_path).read_text())
    if not isinstance(config, dict):
        raise ConfigError(f"config must be a mapping of keys to values, got {type(config).__name__}")
    _check_schema_keys(config, schema, "")
    _check_grid_and_names(config)
    _check_schema_values(config, schema)
    _check_named_keys(config)


def check_yaml_file(path):
    """Parse a YAML config file; a syntax error becomes a ConfigError naming the file, line and column (Snakemake
    itself says only "Config file is not valid JSON or YAML"). Returns the parsed content. The wording is shared with
    the venv's startup hook, which does the same for ``--configfile`` overlays (src/brainpipe_startup.py)."""
    import yaml
    from brainpipe_startup import located_yaml_error

    located = located_yaml_error(path)
    if located is not None:
        raise ConfigError(located)
    return yaml.safe_load(Path(path).read_text())


def use_library_in_jobs(library):
    """Make every process the workflow starts import brainpipe from ``library`` (the checkout's src/): put it first
    on PYTHONPATH, which a job's Python reads before its site-packages. Snakemake's script preamble only appends
    to sys.path, so otherwise an installed brainpipe (e.g. an editable install of another clone) would run inside
    jobs while the rerun fingerprints (pipeline/stage_code.py) come from this checkout. Raises ConfigError if this
    process itself already runs another copy."""
    import os

    library = Path(library).resolve()
    if LIBRARY_ROOT != library / "brainpipe":
        raise ConfigError(f"this workflow runs its own library {library / 'brainpipe'}, but this Python process had "
                          f"already imported brainpipe from {LIBRARY_ROOT}. Start snakemake in a fresh "
                          "process (or uninstall the other copy).")
    others = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and Path(p).resolve() != library]
    os.environ["PYTHONPATH"] = os.pathsep.join([str(library)] + others)
