export const USAGE = `Usage: returns-station <command> [options]

Commands:
  serve [--host H] [--port P] [--data-dir D]
      Start the headless station (API and UI). Prints one ready line on stdout:
      "Returns station listening on http://H:P". Logs go to stderr.
      Defaults: --host 127.0.0.1, --port 4780,
      --data-dir $RETURNS_STATION_DATA_DIR or the platform's application-data folder.
  help
      Show this help.
`;
