"""Layer 11, the jobs: gather (load and check), build (plan, stage, commit, manifest), validate, incremental
fingerprints, watch."""
