package dev.strata.state;

/** Managed resources ({@code resource} blocks) and data resources ({@code data} blocks). */
public enum ResourceMode {
    MANAGED("managed"),
    DATA("data");

    private final String json;

    ResourceMode(String json) {
        this.json = json;
    }

    /** The spelling in the state file's {@code mode} field. */
    public String json() {
        return json;
    }

    static ResourceMode fromJson(String s) {
        for (ResourceMode m : values()) {
            if (m.json.equals(s)) {
                return m;
            }
        }
        return null;
    }
}
