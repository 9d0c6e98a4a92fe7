package dev.strata.cli.view;

import dev.strata.hcl.TextWrap;
import java.util.List;

/** The top-level help screen and each command's {@code -help}. Help goes to stdout: it was asked for. */
public final class HelpView {
    private final View view;

    public HelpView(Terminal context) {
        this.view = new View(context);
    }

    /** One group of the command listing, e.g. "Main commands", in listing order. */
    public record Section(String title, List<Entry> commands) {}

    /** One line of the command listing. */
    public record Entry(String name, String synopsis) {}

    /** A command's (or subcommand's) help: {@code name} as typed after {@code strata}, its usage, text and options. */
    public record Page(String name, String usage, String description, List<Option> options) {}

    /** One option as the help shows it: e.g. {@code -lock-timeout=DURATION}, then its text. */
    public record Option(String display, String usage) {}

    public void global(List<Section> sections) {
        StringBuilder sb = new StringBuilder();
        sb.append("Usage: strata [global options] <subcommand> [args]\n\n");
        sb.append(TextWrap.wrap(
                        "Strata plans and applies infrastructure described in the Terraform "
                                + "configuration language. The commands are listed below, the everyday workflow first.",
                        view.width(),
                        ""))
                .append('\n');
        int nameWidth = sections.stream()
                .flatMap(s -> s.commands().stream())
                .mapToInt(c -> c.name().length())
                .max()
                .orElse(0);
        int column = Math.max(nameWidth, 12) + 4;
        for (Section section : sections) {
            if (section.commands().isEmpty()) {
                continue;
            }
            sb.append('\n').append(section.title()).append(":\n");
            for (Entry c : section.commands()) {
                sb.append(entry("  " + c.name(), column + 2, c.synopsis()));
            }
        }
        sb.append("\nGlobal options (use these before the subcommand, if any):\n");
        sb.append(entry(
                "  -chdir=DIR",
                column + 2,
                "Run the subcommand as if started in DIR: relative paths resolve against it."));
        sb.append(entry("  -help", column + 2, "Show this help, or the help of the subcommand that follows."));
        sb.append(entry("  -version", column + 2, "Same as the \"version\" subcommand."));
        view.out().print(sb);
        view.out().flush();
    }

    /** {@code strata fmt -help}, {@code strata state list -help}: usage, text and options. */
    public void page(Page page) {
        StringBuilder sb = new StringBuilder();
        String usage = page.usage().isEmpty() ? "" : " " + page.usage();
        sb.append("Usage: strata [global options] ")
                .append(page.name())
                .append(usage)
                .append("\n\n");
        sb.append(TextWrap.wrap(page.description(), view.width(), "  ")).append('\n');
        List<Option> options = page.options();
        if (!options.isEmpty()) {
            sb.append("\nOptions:\n\n");
            int widest =
                    options.stream().mapToInt(o -> o.display().length()).max().orElse(0);
            int column = Math.min(Math.max(widest, 8) + 4, 26);
            for (int i = 0; i < options.size(); i++) {
                sb.append(entry(
                        "  " + options.get(i).display(),
                        column + 2,
                        options.get(i).usage()));
                if (i != options.size() - 1) {
                    sb.append('\n');
                }
            }
        }
        view.out().print(sb);
        view.out().flush();
    }

    /** {@code head} then {@code text} wrapped in a column; text starts on the next line if head is too wide. */
    private String entry(String head, int column, String text) {
        String pad = " ".repeat(column);
        String body = TextWrap.wrap(text, view.width(), pad);
        if (head.length() + 2 <= column) {
            return head + body.substring(head.length()) + "\n";
        }
        return head + "\n" + body + "\n";
    }
}
