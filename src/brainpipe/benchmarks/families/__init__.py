"""The built-in benchmark families: one module per family (or per paper), each declaring ``FAMILIES`` (and the
data it downloads: ``ASSEMBLIES``, ``STIMULUS_SETS``) exactly as a user's plugin would. Every module of this folder
whose name does not start with ``_`` is read by :func:`brainpipe.benchmarks.registry.builtin`; a family adds a
module here and touches no shared file. The machinery they use (what a family is, the registries of ceilings,
fold fits and metrics) is one package up, in :mod:`brainpipe.benchmarks`.

May import: what :mod:`brainpipe.benchmarks` may import, and :mod:`brainpipe.benchmarks` itself.
"""
