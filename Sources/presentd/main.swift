print("presentd: not yet")
