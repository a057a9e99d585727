# brainpipe: score vision models against brain data, one file per stage.
#   snakemake --cores 2                                  the grid in config/config.yaml
#   snakemake --cores 2 results/<model>/<benchmark>.json  one score
#   snakemake --cores 2 activations_all | ceilings | scores | fetch   partial targets
#   snakemake --cores 2 plots                            leaderboard, sweep tables, figures
#   snakemake --report report.html                       leaderboard, sweeps, per-fold plots (after a run)
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/stimuli.smk"
include: "workflow/rules/fetch.smk"
include: "workflow/rules/assembly.smk"
include: "workflow/rules/place_on_screen.smk"
include: "workflow/rules/activations.smk"
include: "workflow/rules/ceiling.smk"
include: "workflow/rules/gram.smk"
include: "workflow/rules/fit_fold.smk"
include: "workflow/rules/score.smk"
include: "workflow/rules/report.smk"


rule all:
    input:
        "results/summary.tsv",
        reporting.targets(config),
    default_target: True
