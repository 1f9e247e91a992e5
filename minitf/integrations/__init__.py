"""minitf next to other systems: `minitf.integrations.spark` scores Spark DataFrames.

Each integration imports its library (PySpark, pandas, ...) only when used, so
`import minitf` still needs NumPy alone.
"""
