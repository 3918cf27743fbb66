def build():
    while True:
        try:
            sum(range(10 ** 6))
        except Exception:
            pass
