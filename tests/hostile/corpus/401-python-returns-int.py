def build():
    return 3
