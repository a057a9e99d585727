# Threshold benchmarks (Malania2007; workflow/rules/threshold.smk): their input and params functions and the
# benchmarks and data sets their wildcard constraints name are PLAN.threshold's (src/brainpipe/pipeline/plan/
# threshold.py), built with every other part of the plan in common.smk.
