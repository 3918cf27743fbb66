def build():
    return build()
