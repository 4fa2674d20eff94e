"""The explorer's screens: main, question, help and the plots."""
