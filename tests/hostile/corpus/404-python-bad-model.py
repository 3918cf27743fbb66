from cpsolve.model import Planning

def build():
    m = Planning()
    m.add_variable('x', 5, 1)
    return m
