# Properties benchmarks (workflow/rules/properties.smk): their input functions are PLAN.properties'
# (src/brainpipe/pipeline/plan/properties.py); the seed of their KS-similarity bootstrap is a param of their ceiling
# and layer-score rules.
from brainpipe.properties.ks_similarity import DEFAULT_SEED as PROPERTIES_SEED
