"""brainpipe from Python, mirroring Brain-Score's ``score(model_identifier, benchmark_identifier)``.

    >>> import brainpipe
    >>> s = brainpipe.score("alexnet_untrained", "SyntheticShapes.IT-pls")      # a model_zoo name
    >>> float(s), s.raw, s.ceiling, s.error, s.layer
    >>> brainpipe.score({"architecture": "resnet18", "weights": None, "layers": {"IT": "layer4"}},
    ...                 "SyntheticShapes.IT-pls", name="resnet18_untrained", splits=3)
    >>> brainpipe.score(net, "SyntheticShapes.IT-pls", name="mynet", layers={"IT": "layer4"})  # an nn.Module
    >>> brainpipe.score(my_brain_model, "SyntheticShapes.IT-pls", name="mine")    # a BrainModel object

``score`` runs the same Snakemake workflow as the command line, in the same working directory, with the same
on-disk caches (activations, ceilings, fold fits): a score computed in a notebook and one computed by ``snakemake``
share their files and are the identical number. Settings given as keyword arguments are the benchmark's
``benchmark_settings`` (splits, train_size, random_state, pls_components, ridge_alpha, visual_degrees).

A model that exists only in this Python session (an ``nn.Module``, or an object with Brain-Score's BrainModel
interface, e.g. a class defined in a notebook) cannot be rebuilt by a workflow job. Its activations are computed
here, with the library and the settings the activations job would use, into the layer files that job would write
(results/activations/<name>/<stimuli>/<layer>.nc), only those Snakemake would (re)compute; its model_zoo entry says
``architecture: inprocess:<fingerprint>`` (a hash of the network's weights and code, or of the object), and
Snakemake is told those files are up to date (``--touch``), so it records the entry's params like for a job it ran.
Everything after (Gram matrices, folds, ceilings, score) is the ordinary workflow. A changed network has another
fingerprint: Snakemake's params trigger then marks the activations outdated and they are recomputed here. Should a
workflow run outside Python ever need them again (deleted, older than their stimuli), its activations job stops with
a message saying to call ``score`` again.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from .pipeline import workflow_files

DEFAULT_CONFIG = workflow_files.CONFIG


class Score(float):
    """A ceiled score (a float) with Brain-Score's attributes: ``raw``, ``ceiling``, ``error``, plus ``per_fold``,
    ``layer`` and every field of the score JSON in ``attrs``. A score the JSON holds as null is NaN, with why in
    ``reason`` (and ``attrs['reason']``), as Brain-Score returns NaN scores with their attributes."""

    def __new__(cls, result: dict):
        score = super().__new__(cls, float("nan") if result.get("score") is None else result["score"])
        score.attrs = dict(result)
        for key in ("raw", "ceiling", "error", "per_fold", "layer", "model", "benchmark", "reason"):
            setattr(score, key, result.get(key))
        return score

    def __repr__(self):
        # error is None for a single-shot metric (one fold, no error estimate): shown as n/a; so is any null number
        def number(value):
            return "n/a" if value is None else f"{value:.4f}"

        reason = f", reason={self.reason!r}" if self.reason else ""
        return (f"Score({float(self):.4f}, raw={number(self.raw)}, ceiling={number(self.ceiling)}, "
                f"error={number(self.error)}, layer={self.layer!r}, model={self.model!r}, "
                f"benchmark={self.benchmark!r}{reason})")


def _config(path=None) -> dict:
    path = Path(path) if path else workflow_files.default_config()  # the working directory's, else the workflow's
    if not path.is_file():  # a config named that is not there: not silently another one
        raise FileNotFoundError(f"config file {path} not found (config= names the workflow's config)")
    return yaml.safe_load(path.read_text()) or {}


def load_benchmark(identifier: str, config=None):
    """The benchmark ``identifier`` as the workflow scores it (built-in, config benchmark_zoo or plugin)."""
    from . import benchmarks

    return benchmarks.load(identifier, config if isinstance(config, dict) else _config(config))


def load_model(name_or_spec, config=None, device="auto"):
    """A :class:`brainpipe.models.brain_model.BrainModel` from a model_zoo name or a spec dict (Brain-Score's BrainModel
    interface: ``visual_degrees()``, ``start_recording(region, time_bins)``, ``look_at(stimuli)``)."""
    from .models.brain_model import BrainModel

    settings = _config(config)
    degrees = stimulus_degrees(settings)  # so look_at places a stimulus folder on screen as the workflow does
    if isinstance(name_or_spec, str):
        zoo = settings.get("model_zoo") or {}
        if name_or_spec not in zoo:
            raise ValueError(f"model {name_or_spec!r} is not in model_zoo of {config or DEFAULT_CONFIG}; "
                             f"known: {sorted(zoo)}")
        return BrainModel.from_spec(name_or_spec, zoo[name_or_spec], device=device, stimulus_degrees=degrees)
    return BrainModel.from_spec("model", dict(name_or_spec), device=device, stimulus_degrees=degrees)


def stimulus_degrees(config) -> dict:
    """{stimulus set: the visual degrees its images span} for the sets every benchmark of ``config`` shows at one
    size (family degrees, behaviours' own, config benchmark_settings); a set shown at several sizes is left out,
    so look_at asks which one is meant instead of guessing."""
    from . import benchmarks

    registry = benchmarks.from_config(config)
    sizes = {}
    for family in registry.families.values():
        shown = {family.visual_degrees} | {b.visual_degrees for b in family.behaviours if b.visual_degrees}
        for stimulus_set in family.stimulus_sets:
            sizes.setdefault(stimulus_set, set()).update(float(d) for d in shown)
    for identifier, settings in (config.get("benchmark_settings") or {}).items():
        family = registry.families.get(re.split(r"[.-]", identifier, maxsplit=1)[0])
        if family is not None and (settings or {}).get("visual_degrees") is not None:
            for stimulus_set in family.stimulus_sets:
                sizes.setdefault(stimulus_set, set()).add(float(settings["visual_degrees"]))
    return {stimulus_set: shown.pop() for stimulus_set, shown in sizes.items() if len(shown) == 1}



#: keyword arguments of :func:`score` that describe an in-memory model (as a model_zoo entry would), not the benchmark
MODEL_KEYS = ("layers", "sweep", "visual_degrees", "preprocessing", "time_mapping")


def _refuse_other_settings(name, benchmark, base, merged, config_path):
    """A model_zoo model's results/<name>/<benchmark>.json is the grid's score under the config's settings; a call
    with other settings would overwrite it, and summary.tsv would show a number the config does not describe."""
    from . import benchmarks

    ours, theirs = benchmarks.load(benchmark, base).settings, benchmarks.load(benchmark, merged).settings
    changed = {key: value for key, value in theirs.items() if ours.get(key) != value}
    if changed:
        where = config_path or DEFAULT_CONFIG
        raise ValueError(
            f"brainpipe.score({name!r}, {benchmark!r}, {', '.join(f'{k}={v!r}' for k, v in changed.items())}): "
            f"results/{name}/{benchmark}.json is the grid's score under the settings of {where} "
            f"({', '.join(f'{k}={ours[k]!r}' for k in changed)}); a score under other settings would overwrite it "
            f"and summary.tsv would show it as the config's. Put the settings under benchmark_settings."
            f"{benchmark} in {where} (exactly the affected jobs rerun), or score a spec dict under another "
            f"name=, whose results go to their own folder")


def score(model, benchmark: str, name: str | None = None, cores: int = 2, config=None, quiet=None, device=None,
          **settings) -> Score:
    """Score ``model`` on ``benchmark`` through the workflow; returns a :class:`Score`.

    model : a model_zoo name of the config; a spec dict (a model_zoo entry; give ``name``, the results folder); an
        ``nn.Module`` with ``name=`` and ``layers={region: module name}`` (optional ``sweep``, ``visual_degrees``
        (the model's, default 8) and ``preprocessing``, as in a model_zoo entry); or an object with Brain-Score's
        BrainModel interface (``visual_degrees()``, ``start_recording(region, time_bins)``, ``look_at(paths)``)
        with ``name=`` (its layers are the regions it records).
    benchmark : an identifier, ``<Family>.<region>-<metric>`` or ``<Family>-<metric>`` (``brainpipe list``
        shows them).
    settings : the benchmark's settings (e.g. ``splits=3``); they key the caches like config benchmark_settings.
        For an in-memory model, ``visual_degrees`` is the model's (as in its model_zoo entry).
    config : the config file the workflow reads first (default config/config.yaml of the working directory, else
        of this checkout).
    device : where an in-memory model runs ('auto', 'cpu', 'cuda'; default the config's ``device``).
    quiet : None (default) one progress line on stderr, rewritten as Snakemake finishes jobs ("7 of 19 jobs
        (37%) done, latest job: fit_fold"); False Snakemake's whole log; True nothing (errors still show its log's end).
    """
    base = _config(config)
    zoo = base.get("model_zoo") or {}
    extra = {"benchmarks": [benchmark]}
    model_keys = {key: settings.pop(key) for key in MODEL_KEYS if key in settings}
    inprocess = not isinstance(model, (str, dict))
    if not inprocess:
        unused = [key for key in model_keys if key != "visual_degrees"]
        if unused:
            raise TypeError(f"{unused[0]}= describes an in-memory model; for a model_zoo name or a spec dict it "
                            "belongs in the model_zoo entry")
        settings.update(model_keys)  # visual_degrees of a zoo or spec model: the benchmark's setting, as before
    if isinstance(model, str):
        if model not in zoo:
            raise ValueError(f"model {model!r} is not in model_zoo; pass a spec dict (and name=) or add it there")
        name = model
    elif isinstance(model, dict):
        if not name:
            raise ValueError("a model given as a spec dict needs name=..., the folder its results go to")
        extra["model_zoo"] = {name: model}
    else:
        if not name:
            raise ValueError(f"an in-memory model ({type(model).__name__}) needs name=..., the folder its results "
                             "go to (results/<name>/)")
        if name in zoo:
            raise ValueError(f"name {name!r} is a model_zoo entry of the config ({zoo[name].get('architecture')}); "
                             "choose another name for your in-memory model, so the two never share results")
        extra["model_zoo"] = {name: _inprocess_entry(model, name, model_keys)}
    extra["models"] = [name]
    if settings:
        extra["benchmark_settings"] = {benchmark: settings}
        if isinstance(model, str):
            _refuse_other_settings(name, benchmark, base, _merged(base, extra), config)
    config_file = Path(config) if config else workflow_files.default_config()
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", prefix=".brainpipe-score-", dir=".", delete=False) as f:
        yaml.safe_dump(extra, f)
    workflow = _Workflow(config_file, f.name, cores, quiet)
    try:
        if inprocess:
            _ensure_inprocess_activations(model, name, benchmark, _merged(base, extra), workflow, device)
        target = f"results/{name}/{benchmark}.json"
        workflow.run(target, what=f"scoring {name} on {benchmark}")
    finally:
        os.unlink(f.name)
    return Score(json.loads(Path(target).read_text()))


class _Workflow:
    """``snakemake`` on this checkout's Snakefile in the working directory, with the user's and the call's configs."""

    def __init__(self, config_file, extra_file, cores, quiet):
        self.base = [str(Path(sys.executable).parent / "snakemake"), "-s", str(workflow_files.snakefile()),
                     "--cores", str(cores)]
        self.configs = ["--configfile", str(config_file), str(extra_file)]  # last: --configfile takes a list
        self.quiet = quiet

    def run(self, *arguments, what, capture=False):
        command = self.base + list(arguments) + self.configs
        if self.quiet is None and not capture:
            returncode, output = _run_with_progress_line(command, what)
        else:
            run = subprocess.run(command, capture_output=self.quiet or capture, text=True)
            returncode, output = run.returncode, (run.stdout or "") + (run.stderr or "")
        if returncode != 0:
            raise RuntimeError(f"{what} failed (snakemake exit {returncode}):\n"
                               f"{output[-3000:] if self.quiet is not False or capture else ''}")
        return output


#: Snakemake's lines that ``score``'s progress line is made of: a job starting, and the count after each job
STARTED = re.compile(r"^(?:local)?rule (\w+):$")
DONE = re.compile(r"^(\d+) of (\d+) steps \((\d+%)\) done$")


def _run_with_progress_line(command, what, out=None):
    """Run Snakemake, keeping its log, and show one line on ``out`` (stderr) that is rewritten as jobs start and
    finish, as tqdm does (a carriage return, which terminals and notebooks both honour); a newline ends it."""
    out = out or sys.stderr
    lines, state = [], {"done": "", "rule": ""}

    def show(text):
        print(f"\r\x1b[K{text}" if out.isatty() else f"\r{text}", end="", file=out, flush=True)

    show(f"brainpipe: {what}: planning")
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1) as run:
        for line in run.stdout:
            lines.append(line)
            line = line.strip()
            started, done = STARTED.match(line), DONE.match(line)
            if started:
                state["rule"] = started.group(1)
            elif done:
                state["done"] = f"{done.group(1)} of {done.group(2)} jobs ({done.group(3)}) done"
            elif line.startswith("Nothing to be done"):
                state["done"] = "nothing to do (all up to date)"
            else:
                continue
            show(f"brainpipe: {what}: {state['done'] or 'started'}"
                 f"{', latest job: ' + state['rule'] if state['rule'] and 'nothing' not in state['done'] else ''}")
    print(file=out, flush=True)
    return run.returncode, "".join(lines)


def _merged(base, extra):
    """The config the workflow sees: ``extra`` merged into ``base`` recursively (as Snakemake's --configfile)."""
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            value = _merged(merged[key], value)
        merged[key] = value
    return merged


# --- models that live in this Python session ----------------------------------------------------------------------

def _inprocess_entry(model, name, keys):
    """The model_zoo entry of an nn.Module or a BrainModel object, its layer names checked here (the workflow
    cannot build the model to check them)."""
    import torch

    from .models import model_sources as sources
    from .models.preprocessing import ImagePreprocessing
    from .pipeline.workflow_config import _nearest

    where = f"brainpipe.score(name={name!r})"
    if isinstance(model, torch.nn.Module):
        layers = keys.get("layers")
        known = sources.network_layers(model)
        if not isinstance(layers, dict) or not layers:
            raise ValueError(f"{where}: an nn.Module needs layers={{region: module name}}, e.g. "
                             f"layers={{'IT': {(known or ('...',))[-1]!r}}}; its modules: {list(known)[:10]}")
        sweep = {region: list(sources.network_leaf_layers(model)) if chosen == "all" else list(chosen)
                 for region, chosen in (keys.get("sweep") or {}).items()}
        what = "module"
        ImagePreprocessing.from_config(keys.get("preprocessing"), f"{where}.preprocessing")  # ValueError naming it
        entry = {"visual_degrees": float(keys.get("visual_degrees", 8))}
        if keys.get("preprocessing") is not None:
            entry["preprocessing"] = dict(keys["preprocessing"])
    elif sources.is_brain_model(model):
        if keys.get("preprocessing") is not None:
            raise ValueError(f"{where}: a BrainModel reads and transforms its own images; remove preprocessing=")
        own = float(model.visual_degrees())
        if keys.get("visual_degrees") is not None and float(keys["visual_degrees"]) != own:
            raise ValueError(f"{where}: visual_degrees={keys['visual_degrees']} but the BrainModel says "
                             f"visual_degrees() = {own}; leave visual_degrees= out")
        known = tuple(sources.brain_model_regions(model))
        layers = keys.get("layers") or {region: region for region in known}
        sweep = {region: list(chosen) for region, chosen in (keys.get("sweep") or {}).items()}
        what = "BrainModel region"
        entry = {"visual_degrees": own}
    else:
        raise TypeError(f"model must be a model_zoo name, a spec dict, an nn.Module or an object with Brain-Score's "
                        f"BrainModel interface (look_at, start_recording, visual_degrees); got "
                        f"{type(model).__module__}.{type(model).__qualname__}")
    for section, mapping in (("layers", {r: [layer] for r, layer in layers.items()}), ("sweep", sweep)):
        for region, chosen in mapping.items():
            for layer in chosen:
                if layer not in known:
                    raise ValueError(f"{where}: {section}[{region!r}]: no {what} {layer!r}; {_nearest(layer, known)}"
                                     f"e.g. {list(known)[:10]} ({len(known)} in all)")
    entry.update({"architecture": sources.INPROCESS_PREFIX + fingerprint(model), "layers": dict(layers)})
    if sweep:
        entry["sweep"] = sweep
    if keys.get("time_mapping") is not None:  # a temporal model (models/temporal.py): checked here, by its name
        from .models.temporal import parse_time_mapping

        entry["time_mapping"] = {str(region): (list(steps) if isinstance(steps, (list, tuple)) else
                                               {int(step): list(window) for step, window in steps.items()})
                                 for region, steps in keys["time_mapping"].items()}
        try:
            parse_time_mapping(entry, name)
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
    return entry


def fingerprint(model) -> str:
    """A hash of an in-memory model: for an nn.Module its weights and buffers (names, dtypes, shapes, bytes), the
    source of every module class it uses and its repr (strides, paddings: what shapes no tensor); for a BrainModel
    object its class's source and its pickled attributes, or, if it does not pickle, a token of this object in
    this session (never reused: a new object, or a new session, recomputes). Different weights, a different
    structure or edited class code give another fingerprint, so its activations are recomputed, not reused."""
    import hashlib

    import torch

    digest = hashlib.sha256()
    if isinstance(model, torch.nn.Module):
        digest.update(b"nn.Module\0")
        for cls in sorted({type(m) for m in model.modules()}, key=lambda c: (c.__module__, c.__qualname__)):
            digest.update(_class_code(cls))
        digest.update(repr(model).encode())
        for key, tensor in model.state_dict().items():
            tensor = tensor.detach().to("cpu").contiguous().reshape(-1)
            digest.update(f"\0{key}\0{tensor.dtype}\0{tuple(tensor.shape)}\0".encode())
            digest.update(tensor.view(torch.uint8).numpy().tobytes())
    else:
        import pickle

        digest.update(b"BrainModel\0")
        digest.update(_class_code(type(model)))
        try:  # its attributes, not the object: a class defined inside a function pickles no instance
            digest.update(pickle.dumps(vars(model), protocol=4))
        except Exception:  # no __dict__ (slots), or a lambda or an open file among its attributes
            digest.update(_session_token(model))
    return digest.hexdigest()[:16]


def _class_code(cls) -> bytes:
    import inspect

    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):  # a built-in, or defined where no source is kept
        source = ""
    return f"{cls.__module__}.{cls.__qualname__}\0{source}\0".encode()


_TOKENS = {}


def _session_token(model) -> bytes:
    import uuid
    import weakref

    key = id(model)
    token = _TOKENS.get(key)
    if token is None or token[0]() is not model:
        try:
            reference = weakref.ref(model)
        except TypeError:  # no weak references: a fresh token each call (always recomputed)
            return uuid.uuid4().bytes
        token = _TOKENS[key] = (reference, uuid.uuid4().bytes)
    return token[1]


def _targets(name, benchmark, config):
    """(activations folder, stimulus folder, layers) of the activations job the score of ``name`` needs: as
    the workflow plan (src/brainpipe/pipeline/plan: activations, stimuli folders, layers) computes them."""
    from .data import screen
    from .benchmarks.base import configured_access
    from .pipeline.model_layers import layers_for_sweep
    from .pipeline.workflow_config import load_registry

    registry = load_registry(config)
    settings = (config.get("benchmark_settings") or {}).get(benchmark)
    try:
        b = registry.benchmark(benchmark, settings, configured_access(config, benchmark.split(".", 1)[0]))
    except ValueError as error:
        raise ValueError(f"benchmark {benchmark}: {error}") from None
    spec = config["model_zoo"][name]
    if b.region not in spec["layers"]:
        raise ValueError(f"brainpipe.score(name={name!r}): {benchmark} scores region {b.region}, but layers= "
                         f"commits nothing to it: {spec['layers']}")
    target, source = float(spec.get("visual_degrees", 8)), float(b.visual_degrees)
    stimulus_set = b.family.stimulus_set
    if target == source:
        key, stimuli = stimulus_set, f"resources/stimuli/{stimulus_set}"
    else:
        key = screen.placed_identifier(stimulus_set, target, source)
        stimuli = f"results/stimuli_on_screen/{key}"
    regions = {r for f in registry.families.values() if stimulus_set in f.stimulus_sets for r in f.regions}
    layers = [spec["layers"][r] for r in sorted(regions) if r in spec["layers"]]
    for region in sorted(regions):
        layers += layers_for_sweep(spec, region)
    return f"results/activations/{name}/{key}", stimuli, sorted(set(layers))


def _ensure_inprocess_activations(model, name, benchmark, config, workflow, device):
    """Compute here the layers of an in-memory model that Snakemake would (re)compute, and only those, then mark
    them done for Snakemake (``--touch``: it records the entry's params, so another fingerprint reruns them). Each
    layer file is its own output, as for a job: layers already up to date are neither recomputed nor touched."""
    folder, stimuli, layers = _targets(name, benchmark, config)
    files = [f"{folder}/{layer}.nc" for layer in layers]
    plan = workflow.run("--dry-run", *files, what=f"planning the activations of {name}", capture=True)
    planned = _planned_layer_files(plan, folder)
    if not planned:
        return
    if (set(re.findall(r"^(?:local)?rule (\w+):$", plan, flags=re.M)) - {"activations", "activations_temporal"}
            - _layer_set_rules(plan)):
        workflow.run(stimuli, what=f"preparing the stimuli {stimuli}")  # stimuli not ready yet
    if workflow.quiet is not True:  # the one step that is not a Snakemake job: say what the wait is for
        print(f"brainpipe: computing the activations of {name} in this process ({', '.join(planned)}; log "
              f"{_log_file(planned)})", file=sys.stderr, flush=True)
    _extract(model, name, config, stimuli, planned, device)
    workflow.run("--touch", "--force", *planned.values(), what=f"recording the activations of {name}")


def _planned_layer_files(plan, folder):
    """{layer: file} of the activations in ``folder`` that a dry run's jobs would write."""
    outputs = [path for line in re.findall(r"^\s+output: (.+)$", plan, flags=re.M) for path in line.split(", ")]
    return {Path(path).name.removesuffix(".nc"): path for path in outputs if Path(path).parent == Path(folder)}


def _layer_set_rules(plan):
    """The rules of a dry run that extract several layers together (workflow/rules/activations.smk)."""
    return set(re.findall(r"^rule (activations_layers_\w+):$", plan, flags=re.M))


def _extract(model, name, config, stimuli, destinations, device):
    """The activations job's work (workflow/scripts/activations.py), on the in-memory model: same preprocessing,
    batch size, decode workers and torch threads (the rule's 2), so the numbers equal the job's.
    destinations: {layer: file}, all in one folder."""
    import torch

    from .models.activations import extract_to_files
    from .models.brain_model import ActivationsModel, BrainModelActivations

    spec = config["model_zoo"][name]
    device = device or config.get("device", "auto")
    workers = config.get("decode_workers", "auto")
    workers = None if workers == "auto" else int(workers)
    threads = torch.get_num_threads()
    if isinstance(model, torch.nn.Module):
        parameter = next(iter(model.parameters()), None)
        home, training = (parameter.device if parameter is not None else None), model.training
        wrapped = ActivationsModel(name, spec["architecture"], device=device, preprocessing=spec.get("preprocessing"),
                                   network=model)
    else:
        home, training = None, None
        wrapped = BrainModelActivations(name, model, spec.get("visual_degrees"))
    temporal = spec.get("time_mapping") is not None
    if temporal:  # one forward per batch records every step (workflow/scripts/activations_temporal.py's work)
        from .models.temporal import TemporalBrainModel, TemporalNetwork, parse_time_mapping

        mapping = parse_time_mapping(spec, name)
        wrapped = (TemporalNetwork(wrapped) if isinstance(model, torch.nn.Module)
                   else TemporalBrainModel(wrapped, mapping))
        wanted = {layer: (sorted({step for region, committed in spec["layers"].items() if committed == layer
                                  for step in mapping.get(region, {})}), f"brainpipe.score(name={name!r}).time_mapping")
                  for layer in destinations}
    log = _log_file(destinations)
    log.parent.mkdir(parents=True, exist_ok=True)
    try:
        torch.set_num_threads(2)  # the activations rule's threads: the same float summation order as a job
        with open(log, "w") as progress:
            print(f"{name} (in-process, {spec['architecture']}) on {wrapped.device}: layers {list(destinations)}",
                  file=progress)
            if temporal:
                from .models.temporal import extract_temporal

                extract_temporal(wrapped, stimuli, destinations, config.get("batch_size", 64), workers, progress,
                                 wanted)
            else:
                extract_to_files(wrapped, stimuli, destinations, config.get("batch_size", 64), workers,
                                 progress=progress)
    finally:
        torch.set_num_threads(threads)
        if training is not None:  # give the user's network back as it came (mode and device)
            model.train(training)
            if home is not None:
                model.to(home)


def _log_file(destinations):
    """The log the activations job would write: logs/activations/<model>/<stimuli>/<layer>.log for one layer,
    logs/activations/<model>/<stimuli>.log for several (workflow/rules/activations.smk)."""
    files = [Path(path) for path in destinations.values()]
    logs = Path("logs/activations").joinpath(*files[0].parent.parts[2:])
    return logs / f"{files[0].stem}.log" if len(files) == 1 else logs.with_name(f"{logs.name}.log")
