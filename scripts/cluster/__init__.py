"""`make cluster`: the multi-machine deployment as network namespaces, broken under load."""
