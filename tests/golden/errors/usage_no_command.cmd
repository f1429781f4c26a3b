// gdsl without a command.
# exit 2
