"""Running Arboretum beyond one process: replicas behind HAProxy, containers, manifests."""
