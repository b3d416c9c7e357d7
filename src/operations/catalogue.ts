import * as articles from './articles.ts';
import * as clients from './clients.ts';
import * as customers from './customers.ts';
import { type Operation, planned } from './define.ts';
import * as general from './general.ts';
import * as pricing from './pricing.ts';
import * as shops from './shops.ts';
import * as stock from './stock.ts';

/**
 * The 75 operations of the TV2 interface (shared/reference/operations.md), one row each. A built
 * operation is its definition; `planned(...)` rows answer 501 NOT_IMPLEMENTED until their area lands.
 * GetToken (the 75th) is served by src/http/token-route.ts.
 */
export const OPERATIONS: Operation[] = [
  // Articles, images, size tables
  articles.B2B_GetAllArticles,
  articles.B2B_GetArticle,
  pricing.B2C_GetAllActionPrice,
  articles.B2C_GetAllArticlesImages,
  articles.B2C_GetAllArticles,
  pricing.B2C_GetArticleACTIONPrice,
  articles.B2C_GetArticleImage,
  articles.B2C_GetArticle,
  articles.GetSizeTables,
  // Clients (retail)
  clients.B2C_GetClient_Purchase,
  clients.B2C_GetClient,
  clients.B2C_PostClient,
  // Retail miscellaneous
  planned('GET', 'B2B_GetInvoicePDF', 'Invoices', 'Invoice as PDF'),
  planned('GET', 'B2C_BonuscardHistory', 'Loyalty', 'Bonus card history'),
  clients.B2C_ClaimClientAction,
  shops.B2C_GetAllShopImages,
  shops.B2C_GetAllShops,
  clients.B2C_GetClientActions,
  clients.B2C_GetClientMemberCardInfo,
  clients.B2C_GetClient_OnAccountDetail,
  clients.B2C_GetClient_OpenOnAccount,
  shops.B2C_GetCompanyRegEx,
  shops.B2C_GetHomePages,
  clients.B2C_GetMemberCardPhotoBase64,
  shops.B2C_GetPickUpLocations,
  clients.B2C_GetProfilePhotoBase64,
  shops.B2C_GetShopAssistants,
  shops.B2C_GetShopImage,
  clients.B2C_GetUserMessages,
  clients.B2C_PostProfilePhotoBase64,
  clients.B2C_UpdateMarkedForDeletion,
  general.APIPing,
  // Customers and representatives (wholesale)
  customers.B2B_GetAllCustomerArticleLink,
  customers.B2B_GetAllCustomers,
  customers.B2B_GetCustomerArticleLink,
  pricing.B2B_GetCustomerLineDiscounts,
  customers.B2B_GetCustomer,
  customers.B2B_GetRepresentativeCustomers,
  customers.B2B_GetRepresentatives,
  customers.B2B_PostCustomer,
  // Orders (retail)
  planned('POST', 'B2C_CloseClientOrder', 'Orders', 'Close a client order'),
  planned('GET', 'B2C_GetOrderStateChanges', 'Orders', 'Order state changes'),
  planned('GET', 'B2C_GetOrderState', 'Orders', 'State of one order'),
  planned('POST', 'B2C_GetReturnLocation', 'Orders', 'Return location'),
  planned('POST', 'B2C_PostWebOrder', 'Orders', 'Post a web order'),
  // Orders, deliveries, invoices (wholesale)
  planned('GET', 'B2B_GetDeliveryHistory', 'Orders', 'Delivery history'),
  planned('GET', 'B2B_GetInvoiceHistory', 'Invoices', 'Invoice history'),
  planned('GET', 'B2B_GetOrderHistory', 'Orders', 'Order history'),
  planned('GET', 'B2B_GetOrderStateChanges', 'Orders', 'Order state changes'),
  planned('GET', 'B2B_GetOrderState', 'Orders', 'State of one order'),
  planned('GET', 'B2B_GetOrder', 'Orders', 'One order'),
  planned('GET', 'B2B_GetUnsettledItems', 'Invoices', 'Unsettled items'),
  customers.B2B_PostDeliveryAddress,
  planned('POST', 'B2B_PostOrdCus', 'Orders', 'Post an order for a customer'),
  // Prices (wholesale)
  pricing.B2B_GetAllPriceAgreements,
  pricing.B2B_GetAllPrices,
  pricing.B2B_GetArticlePrice,
  pricing.B2B_GetPriceAgreement,
  pricing.B2B_GetPriceChanges,
  // Stock
  stock.B2B_GetArticleStock,
  stock.B2B_GetStockChanges,
  stock.B2B_GetStocks,
  stock.B2C_GetArticleStock,
  stock.B2C_GetStockChanges,
  stock.B2C_GetStocks,
  // Credit notes, cheques, vouchers, bonus cards
  planned('GET', 'B2C_GetALLOpenCreditNotes', 'Vouchers', 'All open credit notes'),
  planned('GET', 'B2C_GetBonusCardValue', 'Loyalty', 'Bonus card value'),
  planned('GET', 'B2C_GetOpenClientCheque', 'Vouchers', 'Open client cheque'),
  planned('POST', 'B2C_PostCashedClientCheque', 'Vouchers', 'Post a cashed client cheque'),
  planned('POST', 'B2C_PostCashedVoucher', 'Vouchers', 'Post a cashed voucher'),
  planned('POST', 'B2C_PostNewCreditNoteVoucher', 'Vouchers', 'Post a new credit note voucher'),
  planned('POST', 'B2C_PostNewGiftVoucher', 'Vouchers', 'Post a new gift voucher'),
  planned('POST', 'B2C_UpdateBonusCardValue', 'Loyalty', 'Update bonus card value'),
  planned('GET', 'B2C_ValidateVoucher', 'Vouchers', 'Validate a voucher'),
];
