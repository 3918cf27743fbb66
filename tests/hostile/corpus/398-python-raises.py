def build():
    raise RuntimeError('boom')
