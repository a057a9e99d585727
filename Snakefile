# brainpipe: score vision models against brain data, one file per stage.
#   snakemake --cores 2                                  the grid in config/config.yaml
#   snakemake --cores 2 results/<model>/<benchmark>.json  one score
#   snakemake --cores 2 activations | ceilings | scores   partial targets
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/stimuli.smk"
include: "workflow/rules/fetch.smk"
include: "workflow/rules/assembly.smk"
include: "workflow/rules/place_on_screen.smk"
include: "workflow/rules/activations.smk"
include: "workflow/rules/ceiling.smk"
include: "workflow/rules/fit_fold.smk"
include: "workflow/rules/score.smk"


rule all:
    input:
        "results/summary.tsv",
    default_target: True
