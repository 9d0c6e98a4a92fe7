package dev.strata.cli.view;

import dev.strata.hcl.TextWrap;
import dev.strata.cli.command.Command;
import dev.strata.cli.command.CommandContext;
import dev.strata.cli.command.Flag;
import java.util.List;

/** The top-level help screen and each command's {@code -help}. Help goes to stdout: it was asked for. */
public final class HelpView {
    private final View view;

    public HelpView(CommandContext context) {
        this.view = new View(context);
    }

    public void global(List<Command> commands) {
        StringBuilder sb = new StringBuilder();
        sb.append("Usage: strata [global options] <subcommand> [args]\n\n");
        sb.append(TextWrap.wrap("Strata plans and applies infrastructure described in the Terraform "
                + "configuration language. The commands are listed below, the everyday workflow first.",
                view.width(), "")).append('\n');
        int nameWidth = commands.stream().mapToInt(c -> c.name().length()).max().orElse(0);
        int column = Math.max(nameWidth, 12) + 4;
        for (Command.Section section : Command.Section.values()) {
            List<Command> in = commands.stream().filter(c -> c.section() == section).toList();
            if (in.isEmpty()) {
                continue;
            }
            sb.append('\n').append(section.title()).append(":\n");
            for (Command c : in) {
                sb.append(entry("  " + c.name(), column + 2, c.synopsis()));
            }
        }
        sb.append("\nGlobal options (use these before the subcommand, if any):\n");
        sb.append(entry("  -chdir=DIR", column + 2,
                "Run the subcommand as if started in DIR: relative paths resolve against it."));
        sb.append(entry("  -help", column + 2, "Show this help, or the help of the subcommand that follows."));
        sb.append(entry("  -version", column + 2, "Same as the \"version\" subcommand."));
        view.out().print(sb);
        view.out().flush();
    }

    public void command(Command command) {
        show(command.name(), command.usage(), command.description(), command.flags());
    }

    /** {@code strata state list -help}: one subcommand's usage, text and flags. */
    public void subcommand(Command parent, dev.strata.cli.command.SubcommandHelp sub) {
        String text = Character.toUpperCase(sub.text().charAt(0)) + sub.text().substring(1);
        show(parent.name() + " " + sub.name(), sub.usage(), text, sub.flags());
    }

    private void show(String name, String usageText, String description, dev.strata.cli.command.FlagSet flagSet) {
        StringBuilder sb = new StringBuilder();
        String usage = usageText.isEmpty() ? "" : " " + usageText;
        sb.append("Usage: strata [global options] ").append(name).append(usage).append("\n\n");
        sb.append(TextWrap.wrap(description, view.width(), "  ")).append('\n');
        List<Flag<?>> flags = flagSet.all();
        if (!flags.isEmpty()) {
            sb.append("\nOptions:\n\n");
            int widest = flags.stream().mapToInt(f -> display(f).length()).max().orElse(0);
            int column = Math.min(Math.max(widest, 8) + 4, 26);
            for (Flag<?> f : flags) {
                sb.append(entry("  " + display(f), column + 2, f.usage()));
                if (f != flags.get(flags.size() - 1)) {
                    sb.append('\n');
                }
            }
        }
        view.out().print(sb);
        view.out().flush();
    }

    private static String display(Flag<?> f) {
        return switch (f.kind()) {
            case BOOL -> Boolean.TRUE.equals(f.defaultValue()) ? "-" + f.name() + "=false" : "-" + f.name();
            case STRING, INT, STRING_LIST -> "-" + f.name() + "=" + f.placeholder();
        };
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
