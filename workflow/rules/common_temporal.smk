# Temporal models and object solution times (workflow/rules/temporal.smk): their input functions and the models and
# data sets their wildcard constraints name are PLAN.temporal's (src/brainpipe/pipeline/plan/temporal.py).
try:  # a malformed map, overlapping bins or an unmapped committed region stop the run now
    PLAN.temporal.check_time_mappings()
except PlanError as error:
    raise WorkflowError(str(error)) from None
