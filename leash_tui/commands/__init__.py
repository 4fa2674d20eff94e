"""One thin module per leash command: parse options, call the stage, print."""
