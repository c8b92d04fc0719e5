print("presentctl: not yet")
