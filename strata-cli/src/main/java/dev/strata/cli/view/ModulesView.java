package dev.strata.cli.view;

import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import java.util.List;

/**
 * Output of {@code strata get} and {@code strata modules}: the installation lines of {@code terraform get},
 * and the module tree as {@code terraform modules} draws it or in its JSON form ({@code -json}).
 */
public abstract sealed class ModulesView {
    final View view;

    private ModulesView(View view) {
        this.view = view;
    }

    public static ModulesView human(Terminal terminal) {
        return new Human(terminal);
    }

    public static ModulesView of(Terminal terminal, boolean json) {
        return json ? new Json(terminal) : new Human(terminal);
    }

    /**
     * One module call of the tree.
     *
     * @param name     the call's name
     * @param source   its source as written
     * @param version  the version installed, "" where the source has none
     * @param constraint the call's version constraint as written, "" without one (shown after the
     *                 version, as Terraform's tree does)
     * @param children the calls of the module it brings in, by name
     */
    public record Call(String name, String source, String version, String constraint, List<Call> children) {
        public Call {
            children = List.copyOf(children);
        }

        public Call(String name, String source, String version, List<Call> children) {
            this(name, source, version, "", children);
        }
    }

    /** A module installed now, before its {@link #installed} line. */
    public void downloading(String source, String key) {
        view.out().println("Downloading " + source + " for " + key + "...");
        view.out().flush();
    }

    /** A module of the tree and the directory it is read from. */
    public void installed(String key, String dir) {
        view.out().println("- " + key + " in " + dir);
        view.out().flush();
    }

    /** The calls of the root module, depth first, each level sorted by name. */
    public abstract void modules(List<Call> calls);

    public void diagnostics(List<CliDiagnostic> diagnostics) {
        view.diagnostics(diagnostics);
    }

    public void diagnostics(Diagnostics diagnostics, DiagnosticRenderer.Sources sources) {
        view.diagnostics(diagnostics, sources);
    }

    static final class Human extends ModulesView {
        Human(Terminal terminal) {
            super(new View(terminal));
        }

        @Override
        public void modules(List<Call> calls) {
            if (calls.isEmpty()) {
                view.out().println("No modules found in configuration.");
                view.out().flush();
                return;
            }
            view.out().println();
            view.out().println("Modules declared by configuration:");
            view.out().println(".");
            tree(calls, "");
            view.out().println();
            view.out().flush();
        }

        private void tree(List<Call> calls, String indent) {
            for (int i = 0; i < calls.size(); i++) {
                Call c = calls.get(i);
                boolean last = i == calls.size() - 1;
                view.out()
                        .println(indent + (last ? "└── " : "├── ") + "\"" + c.name() + "\"[" + c.source() + "]"
                                + (c.version().isEmpty()
                                        ? ""
                                        : " " + c.version()
                                                + (c.constraint().isEmpty() ? "" : " (" + c.constraint() + ")")));
                // Terraform's tree continues a branch with a bar and two no-break spaces.
                tree(c.children(), indent + (last ? "    " : "│\u00a0\u00a0 "));
            }
        }
    }

    /**
     * {@code terraform modules -json}: {@code format_version} and the calls as one flat list, depth first;
     * {@code null} rather than an empty list when there are none, as Terraform writes it.
     */
    static final class Json extends ModulesView {
        Json(Terminal terminal) {
            super(View.monochrome(terminal));
        }

        /** Warnings as well as errors on stderr: stdout is the JSON document alone. */
        @Override
        public void diagnostics(Diagnostics diagnostics, DiagnosticRenderer.Sources sources) {
            view.diagnosticsOnStderr(diagnostics, sources);
        }

        @Override
        public void modules(List<Call> calls) {
            StringBuilder sb = new StringBuilder("{\"format_version\":\"1.0\",\"modules\":");
            if (calls.isEmpty()) {
                sb.append("null");
            } else {
                sb.append('[');
                flatten(calls, sb);
                sb.append(']');
            }
            view.out().println(sb.append('}'));
            view.out().flush();
        }

        private static void flatten(List<Call> calls, StringBuilder sb) {
            for (Call c : calls) {
                if (sb.charAt(sb.length() - 1) != '[') {
                    sb.append(',');
                }
                sb.append("{\"key\":")
                        .append(dev.strata.cli.view.Json.quote(c.name()))
                        .append(",\"source\":")
                        .append(dev.strata.cli.view.Json.quote(c.source()))
                        .append(",\"version\":")
                        .append(dev.strata.cli.view.Json.quote(c.version()))
                        .append('}');
                flatten(c.children(), sb);
            }
        }
    }
}
