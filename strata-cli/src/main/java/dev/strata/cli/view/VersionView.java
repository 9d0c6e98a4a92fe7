package dev.strata.cli.view;

import java.util.List;

/** Output of {@code strata version}. */
public sealed interface VersionView {

    /** A provider in use by the working directory, e.g. ("registry.terraform.io/hashicorp/random", "3.6.0"). */
    record ProviderSelection(String source, String version) {}

    void show(String version, String platform, List<ProviderSelection> providers);

    final class Human implements VersionView {
        private final View view;

        public Human(Terminal context) {
            this.view = new View(context);
        }

        @Override
        public void show(String version, String platform, List<ProviderSelection> providers) {
            StringBuilder sb = new StringBuilder();
            sb.append("Strata v").append(version).append('\n');
            sb.append("on ").append(platform).append('\n');
            for (ProviderSelection p : providers) {
                sb.append("+ provider ")
                        .append(p.source())
                        .append(" v")
                        .append(p.version())
                        .append('\n');
            }
            view.out().print(sb);
            view.out().flush();
        }
    }

    /** Same shape as {@code terraform version -json}, with Strata's version under {@code strata_version}. */
    final class Json implements VersionView {
        private final View view;

        public Json(Terminal context) {
            this.view = new View(context);
        }

        @Override
        public void show(String version, String platform, List<ProviderSelection> providers) {
            StringBuilder sb = new StringBuilder("{\n");
            sb.append("  \"strata_version\": ")
                    .append(dev.strata.cli.view.Json.quote(version))
                    .append(",\n");
            sb.append("  \"platform\": ")
                    .append(dev.strata.cli.view.Json.quote(platform))
                    .append(",\n");
            if (providers.isEmpty()) {
                sb.append("  \"provider_selections\": {},\n");
            } else {
                sb.append("  \"provider_selections\": {\n");
                for (int i = 0; i < providers.size(); i++) {
                    ProviderSelection p = providers.get(i);
                    sb.append("    ")
                            .append(dev.strata.cli.view.Json.quote(p.source()))
                            .append(": ")
                            .append(dev.strata.cli.view.Json.quote(p.version()))
                            .append(i < providers.size() - 1 ? ",\n" : "\n");
                }
                sb.append("  },\n");
            }
            sb.append("  \"terraform_outdated\": false\n}\n");
            view.out().print(sb);
            view.out().flush();
        }
    }
}
