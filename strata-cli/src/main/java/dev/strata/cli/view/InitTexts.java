package dev.strata.cli.view;

/** The fixed texts of {@code strata init}, Terraform's with Strata's name, shared by its text and its stream. */
final class InitTexts {
    private InitTexts() {}

    static final String LOCK_CREATED = """
            Strata has created a lock file .terraform.lock.hcl to record the provider
            selections it made above. Include this file in your version control repository
            so that Strata can guarantee to make the same selections by default when
            you run "strata init" in the future.""";

    // Terraform's note (a summary is never wrapped, so it has line breaks of its own).
    static final String INVALID = """
            Strata encountered problems during initialisation, including problems
            with the configuration, described below.""";

    static final String INVALID_WHY = """
            The Strata configuration must be valid before initialization so that
            Strata can determine which modules and providers need to be installed.""";

    static final String SUCCESS = "Strata has been successfully initialized!";

    // Terraform's paragraph, naming Strata and its commands (which do detect changed modules and backend
    // settings: "Module not installed", "Backend configuration changed").
    static final String SUCCESS_NEXT = """
            You may now begin working with Strata. Try running "strata plan" to see
            any changes that are required for your infrastructure. All Strata commands
            should now work.

            If you ever set or change modules or backend configuration for Strata,
            rerun this command to reinitialize your working directory. If you forget, other
            commands will detect it and remind you to do so if necessary.""";

    static final String EMPTY = "Strata initialized in an empty directory!";

    static final String EMPTY_NEXT = """
            The directory has no Strata configuration files. You may begin working
            with Strata immediately by creating Strata configuration files.""";
}
