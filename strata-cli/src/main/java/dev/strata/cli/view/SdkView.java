package dev.strata.cli.view;

import dev.strata.hcl.DiagnosticRenderer;
import dev.strata.hcl.Diagnostics;
import java.util.List;

/** Output of {@code strata sdk generate}. */
public final class SdkView {
    private final View view;

    public SdkView(Terminal context) {
        this.view = new View(context);
    }

    /** One provider's bindings: what they cover and where they went. */
    public void generated(String provider, String version, int resourceTypes, int dataSources, String packageName) {
        view.out()
                .println("- " + provider + (version.isEmpty() ? "" : " v" + version) + ": " + resourceTypes
                        + " resource type" + (resourceTypes == 1 ? "" : "s") + ", " + dataSources + " data source"
                        + (dataSources == 1 ? "" : "s") + " in package " + packageName);
        view.out().flush();
    }

    public void success(int files, int removed, String dir) {
        view.out().println();
        view.out()
                .println(view.style(
                        View.Style.BOLD_GREEN,
                        "Strata has written " + files + " Java source file" + (files == 1 ? "" : "s") + " to " + dir
                                + (removed == 0
                                        ? "."
                                        : ", and removed " + removed + " it had generated before that no "
                                                + "longer exist.")));
        view.out().flush();
    }

    public void diagnostics(Diagnostics ds, DiagnosticRenderer.Sources sources) {
        view.diagnostics(ds, sources);
    }

    public void cliDiagnostics(List<CliDiagnostic> ds) {
        view.diagnostics(ds);
    }
}
