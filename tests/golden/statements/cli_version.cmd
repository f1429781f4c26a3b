// gdsl --version prints the version and exits with status 0.
--version
