"""The process's HTTP side: the webhook, health checks and Prometheus metrics."""
