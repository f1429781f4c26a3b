// The help of gdsl census report: every option, in order (cli/Options.cpp makes an option only
// when the command line names it, or asks for help).
census report --help
