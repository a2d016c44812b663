import { sql, type Db } from '@lampstand/db';

/** Delivery ids from the table's sequence, a block at a time (a gap where some go unused is harmless). */
export class DeliveryIds {
  private free: number[] = [];
  constructor(
    private trx: Db,
    private block: number,
  ) {}
  async take(): Promise<number> {
    if (this.free.length === 0) {
      const { rows } = await sql<{ id: string }>`
        select nextval(pg_get_serial_sequence('deliveries', 'id')) as id from generate_series(1, ${this.block})`.execute(
        this.trx,
      );
      this.free = rows.map((r) => Number(r.id));
    }
    return this.free.shift()!;
  }
}
