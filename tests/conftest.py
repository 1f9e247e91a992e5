from hypothesis import HealthCheck, settings

# Gradient checks are slow-ish per example; keep runs short and deterministic.
settings.register_profile("minitf", max_examples=15, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("minitf")
