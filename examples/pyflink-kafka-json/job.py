"""A PyFlink Table API job that reads and writes Kafka JSON through StreamFusion's SQL connector jar.

It reads a topic of JSON bids with 'streamfusion-kafka' (the values decoded natively into Flink's rows), converts
the prices, and writes the result twice in one statement set: through Flink's own 'kafka' connector and through
'streamfusion-kafka' (encoded natively, written by Flink's KafkaSink), exactly once, so that the two output
topics can be compared record by record. Both connectors come from the jars given with --jars, which the job
passes to Flink as 'pipeline.jars' (Flink's flink-sql-connector-kafka and ours, beside it).

Usage: python job.py --jars flink-sql-connector-kafka-5.0.0-2.2.jar,streamfusion-sql-connector-kafka-0.2.0-2.2.jar
                     --input bids --stock-output euro-bids-kafka --output euro-bids [--bootstrap 127.0.0.1:19092]
"""

import argparse
import pathlib

from pyflink.table import EnvironmentSettings, TableEnvironment

BID_COLUMNS = "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, date_time TIMESTAMP(3)"
EURO_COLUMNS = "auction BIGINT, bidder BIGINT, euros DECIMAL(12, 2), channel STRING, date_time TIMESTAMP(3)"


def kafka_options(bootstrap: str, topic: str) -> str:
    return f"'topic' = '{topic}', 'properties.bootstrap.servers' = '{bootstrap}'"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jars", required=True, help="comma-separated jar files for pipeline.jars")
    parser.add_argument("--input", required=True, help="the topic of JSON bids to read (to its current end)")
    parser.add_argument("--stock-output", required=True, help="the topic Flink's own 'kafka' sink writes")
    parser.add_argument("--output", required=True, help="the topic 'streamfusion-kafka' writes")
    parser.add_argument("--bootstrap", default="127.0.0.1:19092")
    args = parser.parse_args()

    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    config = t_env.get_config()
    # Flink's URL list: ';'-separated file URLs, loaded by the job's user class loader (as ADD JAR does).
    config.set("pipeline.jars", ";".join(pathlib.Path(jar).resolve().as_uri() for jar in args.jars.split(",")))
    config.set("parallelism.default", "2")
    config.set("execution.checkpointing.interval", "1 s")

    t_env.execute_sql(f"""
        CREATE TEMPORARY TABLE bids ({BID_COLUMNS}) WITH (
          'connector' = 'streamfusion-kafka', {kafka_options(args.bootstrap, args.input)},
          'properties.group.id' = 'pyflink-kafka-json', 'scan.startup.mode' = 'earliest-offset',
          'scan.bounded.mode' = 'latest-offset', 'format' = 'json')""")
    sink_options = ("'key.format' = 'json', 'key.fields' = 'auction', 'value.format' = 'json', "
                    "'sink.partitioner' = 'fixed', 'sink.delivery-guarantee' = 'exactly-once'")
    for table, connector, topic in (("stock_euro_bids", "kafka", args.stock_output),
                                    ("euro_bids", "streamfusion-kafka", args.output)):
        t_env.execute_sql(f"""
            CREATE TEMPORARY TABLE {table} ({EURO_COLUMNS}) WITH (
              'connector' = '{connector}', {kafka_options(args.bootstrap, topic)},
              'sink.transactional-id-prefix' = '{topic}', {sink_options})""")
    euro_bids = "SELECT auction, bidder, CAST(price * 0.908 AS DECIMAL(12, 2)), UPPER(channel), date_time FROM bids"
    statements = t_env.create_statement_set()
    statements.add_insert_sql(f"INSERT INTO stock_euro_bids {euro_bids}")
    statements.add_insert_sql(f"INSERT INTO euro_bids {euro_bids}")
    statements.execute().wait()
    print(f"job finished: {args.input} -> {args.stock_output} ('kafka') and {args.output} ('streamfusion-kafka')")


if __name__ == "__main__":
    main()
