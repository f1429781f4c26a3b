// The help of gdsl check: every option, in order (cli/Options.cpp makes an option only
// when the command line names it, or asks for help).
check --help
