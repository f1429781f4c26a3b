// census report --sort takes game or a numeric column.
census report errors/lib/census_a.db --sort size # exit 2
