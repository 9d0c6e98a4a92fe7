package dev.strata.cli;

/** Entry point of the {@code strata} command. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length == 1 && (args[0].equals("version") || args[0].equals("-version") || args[0].equals("--version"))) {
            System.out.println("Strata v" + Version.current());
            return 0;
        }
        System.err.println("Usage: strata [global options] <subcommand> [args]");
        return args.length == 0 ? 0 : 1;
    }
}
