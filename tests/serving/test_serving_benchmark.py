"""benchmarks/serving.py runs, checks every answer, and reports its figures (a short
run: the speed goal itself is for the benchmark on an idle machine, not for CI)."""
import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_benchmark_runs_and_every_answer_is_right():
    spec = importlib.util.spec_from_file_location(
        "serving_benchmark", os.path.join(ROOT, "benchmarks", "serving.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.run(requests=64, threads=4)
    assert result["wrong"] == 0 and result["requests"] == 64
    assert result["requests_per_second"] > 0 and 0 < result["p50_ms"] <= result["p99_ms"]
    assert result["cpu_ms_per_request"] > 0
    assert module.percentile([1.0, 2.0, 3.0], 50) == 2.0
